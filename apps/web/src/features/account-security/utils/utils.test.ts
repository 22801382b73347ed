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

  it('refuses control characters a browser would drop on the way to another site (issue 37)', () => {
    const origin = 'https://portal.example';
    // ?next=/%09/evil.example/ arrives decoded, with a tab: a browser reads it as //evil.example/.
    expect(safeNext(new URLSearchParams('next=/%09/evil.example/').get('next'), origin)).toBeNull();
    for (const raw of [
      '/\t/evil.example/',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '/%09/evil.example/',
      '/\u202e/x',
      '/\\/evil.example',
    ])
      expect(safeNext(raw, origin), JSON.stringify(raw)).toBeNull();
    expect(safeNext('/admin/../Maine/Harrison/admin#top', origin)).toBe('/Maine/Harrison/admin#top');
  });

  it('refuses dot segments that resolve to another site', () => {
    const origin = 'https://portal.example';
    // ?next=%2F.%2F%2Fevil.example%2F arrives decoded as /.//evil.example/, which resolves to //evil.example/.
    expect(safeNext(new URLSearchParams('next=%2F.%2F%2Fevil.example%2F').get('next'), origin)).toBeNull();
    for (const raw of [
      '/.//evil.example/',
      '/..//evil.example',
      '/a/..//evil.example/x',
      '/%2E//evil.example',
    ])
      expect(safeNext(raw, origin), raw).toBeNull();
    expect(safeNext('/./admin', origin)).toBe('/admin');
  });
});

describe('groupSecret', () => {
  it('groups the key in fours for typing', () => {
    expect(groupSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(groupSecret('ABCDEFGH')).toBe('ABCD EFGH');
  });
});
