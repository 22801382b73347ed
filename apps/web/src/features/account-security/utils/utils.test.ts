import { describe, expect, it } from 'vitest';
import { groupSecret } from './format-secret';
import { safeNext } from './safe-next';

describe('safeNext', () => {
  it('follows a path in this app and nothing that leaves it', () => {
    expect(safeNext('/admin')).toBe('/admin');
    expect(safeNext('/Maine/Harrison/admin?x=1')).toBe('/Maine/Harrison/admin?x=1');
    expect(safeNext('//evil.example/admin')).toBeNull();
    expect(safeNext('/\\evil.example')).toBeNull();
    expect(safeNext('https://evil.example/')).toBeNull();
    expect(safeNext(null)).toBeNull();
  });
});

describe('groupSecret', () => {
  it('groups the key in fours for typing', () => {
    expect(groupSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(groupSecret('ABCDEFGH')).toBe('ABCD EFGH');
  });
});
