import { describe, expect, it } from 'vitest';
import { ContactBody } from './contacts.ts';
import { EMAIL, normaliseImageLink, normaliseWebLink } from './links.ts';

describe('normaliseWebLink (issue 37: stored links)', () => {
  it('stores the parser’s normalised http(s) URL, adding https:// the way people type addresses', () => {
    expect(normaliseWebLink('www.town.gov')).toBe('https://www.town.gov/');
    expect(normaliseWebLink('  HTTP://Pay.Town.GOV/tax?acct= ')).toBe('http://pay.town.gov/tax?acct=');
    expect(normaliseWebLink('')).toBe('');
  });

  it('refuses control characters anywhere, other schemes, credentials and hosts without a name', () => {
    for (const bad of [
      '\njavascript:alert(1)%2F%2F@x.com',
      'java\tscript:alert(1)',
      'https://town.gov/\u202eexe.pdf',
      'https://town.gov/a\u0000',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://town.gov',
      'mailto:clerk@town.gov',
      'https://town.gov@evil.example/',
      'https://user:pw@town.gov/',
      'https:\\\\evil.example',
      'localhost',
      'not a link',
    ])
      expect(normaliseWebLink(bad), JSON.stringify(bad)).toBeNull();
  });

  it('keeps image paths on the portal and refuses ones a browser would take elsewhere', () => {
    expect(normaliseImageLink('/api/files/image/p1.jpg')).toBe('/api/files/image/p1.jpg');
    expect(normaliseImageLink('https://cdn.town.gov/p.jpg')).toBe('https://cdn.town.gov/p.jpg');
    for (const bad of [
      '//evil.example/a.jpg',
      '/\\evil.example/a.jpg',
      '/\t/evil.example/',
      '',
      'javascript:x',
    ])
      expect(normaliseImageLink(bad), JSON.stringify(bad)).toBeNull();
  });
});

describe('EMAIL (issue 37: ContactEmail is an address only)', () => {
  it('accepts addresses and refuses anything that adds to a mailto: link', () => {
    expect(EMAIL.test('clerk@town.gov')).toBe(true);
    expect(EMAIL.test("o'brien+tax@mail.town.gov")).toBe(true);
    for (const bad of [
      'a@b.co?cc=x%40evil.com&body=hi',
      'a?cc=x@b.co',
      'a&b@b.co',
      'a#x@b.co',
      'a@b',
      'a b@b.co',
    ])
      expect(EMAIL.test(bad), bad).toBe(false);
    const parsed = ContactBody.safeParse({
      ClientID: 1,
      Title: 'Clerk',
      ContactEmail: 'a@b.co?cc=x%40evil.com',
    });
    expect(parsed.success).toBe(false);
  });
});
