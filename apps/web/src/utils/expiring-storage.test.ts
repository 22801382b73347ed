import { beforeEach, describe, expect, it } from 'vitest';
import { loadWithExpiry, removeStored, saveWithExpiry, STORAGE_TTL_MS } from './expiring-storage';

describe('storage with a 7-day expiry (spec §4, §9)', () => {
  beforeEach(() => localStorage.clear());

  it('uses the spec lifetime of 604800000 ms', () => {
    expect(STORAGE_TTL_MS).toBe(604_800_000);
  });

  it('returns a value until 7 days after it was saved, then deletes it', () => {
    const t0 = 1_700_000_000_000;
    saveWithExpiry('k', { a: 1 }, t0);
    expect(loadWithExpiry('k', t0 + STORAGE_TTL_MS - 1)).toEqual({ a: 1 });
    expect(loadWithExpiry('k', t0 + STORAGE_TTL_MS)).toBeNull();
    expect(localStorage.getItem('k')).toBeNull();
  });

  it('counts the 7 days from the last change', () => {
    const t0 = 1_700_000_000_000;
    saveWithExpiry('k', 'first', t0);
    saveWithExpiry('k', 'second', t0 + 6 * 86_400_000);
    expect(loadWithExpiry('k', t0 + 10 * 86_400_000)).toBe('second');
  });

  it('deletes unreadable entries instead of failing', () => {
    localStorage.setItem('k', '{not json');
    expect(loadWithExpiry('k')).toBeNull();
    expect(localStorage.getItem('k')).toBeNull();
    localStorage.setItem('k', JSON.stringify({ value: 1 }));
    expect(loadWithExpiry('k')).toBeNull();
    expect(localStorage.getItem('k')).toBeNull();
  });

  it('removes on request and reports missing keys as null', () => {
    saveWithExpiry('k', 1);
    removeStored('k');
    expect(loadWithExpiry('k')).toBeNull();
  });
});
