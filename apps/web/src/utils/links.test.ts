import { describe, expect, it } from 'vitest';
import { assetUrl, externalUrl, fileImageUrl, paymentUrl } from './links';

describe('Pay Now link (spec §4)', () => {
  it('prepends https:// when the link has no scheme and appends the account', () => {
    expect(paymentUrl('pay.town.gov/tax?acct=', '1234')).toBe('https://pay.town.gov/tax?acct=1234');
  });
  it('keeps an existing scheme', () => {
    expect(paymentUrl('http://pay.town.gov/', 'A-7')).toBe('http://pay.town.gov/A-7');
    expect(paymentUrl('https://pay.town.gov/?a=', '9')).toBe('https://pay.town.gov/?a=9');
  });
  it('refuses empty and non-web links', () => {
    expect(paymentUrl('  ', '1')).toBeNull();
    expect(paymentUrl('javascript:alert(1)//', '1')).toBeNull();
  });
});

describe('other URLs', () => {
  it('accepts only http(s) external links, adding https:// when missing', () => {
    expect(externalUrl('maps.town.gov/parcel/1')).toBe('https://maps.town.gov/parcel/1');
    expect(externalUrl('javascript:alert(1)')).toBeNull();
    expect(externalUrl('')).toBeNull();
  });
  it('resolves image paths on this origin', () => {
    expect(assetUrl('api/files/image/a.jpg')).toBe('/api/files/image/a.jpg');
    expect(assetUrl('/x.png')).toBe('/x.png');
    expect(assetUrl('https://cdn.example/x.png')).toBe('https://cdn.example/x.png');
    expect(fileImageUrl('banner 1.png')).toBe('/api/files/image/banner%201.png');
  });
});
