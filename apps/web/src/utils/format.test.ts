import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildingPlusLand,
  formatCount,
  formatDateTime,
  formatLocation,
  formatMoney,
  formatNumber,
  formatPercent,
  formatSaleDate,
  formatTaxRate,
} from './format';

describe('formatMoney (spec §9: up to 2 decimals)', () => {
  it('shows whole dollars without cents and other amounts with exactly 2 decimals', () => {
    expect(formatMoney(123400)).toBe('$123,400');
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(2345.678)).toBe('$2,345.68');
    expect(formatMoney(0)).toBe('$0');
    expect(formatMoney(-12.3)).toBe('-$12.30');
  });
  it('never shows more than 2 decimals, even for binary noise', () => {
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
    expect(formatMoney(1999.999)).toBe('$2,000');
  });
  it('leaves missing amounts blank', () => {
    expect(formatMoney(null)).toBe('');
    expect(formatMoney(undefined)).toBe('');
    expect(formatMoney(Number.NaN)).toBe('');
  });
});

describe('formatTaxRate (spec §2/§9: rate × 1000, 2 to 4 decimals)', () => {
  it('multiplies by 1000 and keeps between 2 and 4 decimals', () => {
    expect(formatTaxRate(0.01875)).toBe('18.75');
    expect(formatTaxRate(0.0162)).toBe('16.20');
    expect(formatTaxRate(0.015)).toBe('15.00');
    expect(formatTaxRate(0.0123456)).toBe('12.3456');
    expect(formatTaxRate(0.01234567)).toBe('12.3457');
  });
  it('leaves a missing rate blank', () => {
    expect(formatTaxRate(null)).toBe('');
  });
});

describe('dates', () => {
  it('shows sale dates as MM/DD/YYYY without shifting the day by time zone', () => {
    expect(formatSaleDate('2020-01-01')).toBe('01/01/2020');
    expect(formatSaleDate('1999-12-31T00:00:00.000Z')).toBe('12/31/1999');
    expect(formatSaleDate(null)).toBe('');
    expect(formatSaleDate('not a date')).toBe('');
  });
  it('shows other dates in en-US form', () => {
    expect(formatDateTime('2024-03-05')).toBe('3/5/2024');
    expect(formatDateTime('2024-07-04T15:00:00.000Z')).toMatch(/^7\/4\/2024$/);
    expect(formatDateTime(null)).toBe('');
  });
});

describe('numbers and locations', () => {
  it('formats acres with separators and up to 2 decimals', () => {
    expect(formatNumber(1234.567)).toBe('1,234.57');
    expect(formatNumber(0.5)).toBe('0.5');
    expect(formatNumber(null)).toBe('');
  });
  it('joins street number, apartment and street name, skipping blanks', () => {
    expect(formatLocation({ StreetNumber: '12', Apartment: 'B', StreetName: 'Main St' })).toBe(
      '12 B Main St',
    );
    expect(formatLocation({ StreetNumber: '', Apartment: '', StreetName: 'Main St' })).toBe('Main St');
  });
  it('adds building and land values, treating one missing value as 0', () => {
    expect(buildingPlusLand(100_000, 25_000)).toBe(125_000);
    expect(buildingPlusLand(null, 25_000)).toBe(25_000);
    expect(buildingPlusLand(null, null)).toBeNull();
  });
});

describe('number formats written by hand', () => {
  // What en-US Intl.NumberFormat writes, except that nothing shows as "-0" (Intl writes "-$0" for -0.001).
  const intl = (options: Intl.NumberFormatOptions) => {
    const f = new Intl.NumberFormat('en-US', options);
    return (v: number) => f.format(v).replace(/^-(\$?0(\.0+)?)$/, '$1');
  };
  const money0 = intl({ style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
  const money2 = intl({
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const rate = intl({ minimumFractionDigits: 2, maximumFractionDigits: 4 });
  const plain = intl({ maximumFractionDigits: 2 });
  const count = intl({ maximumFractionDigits: 0 });
  const amounts = fc.oneof(
    fc.double({ min: -1e15, max: 1e15, noNaN: true }),
    fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 100),
    fc.integer({ min: -1e7, max: 1e7 }).map((n) => n / 1000 + 0.0005),
    fc.constantFrom(0, -0, 0.005, 0.015, 2.675, 1.005, 999.995, 999_999.5, -0.004, 1e14 + 0.5),
  );

  it('match Intl.NumberFormat for money, tax rates, plain numbers, percents and counts', () => {
    fc.assert(
      fc.property(amounts, (v) => {
        const cents = Math.round(v * 100);
        expect(formatMoney(v)).toBe(cents % 100 === 0 ? money0(cents / 100) : money2(cents / 100));
        expect(formatTaxRate(v / 1000)).toBe(rate(Number(((v / 1000) * 1000).toFixed(6))));
        expect(formatNumber(v)).toBe(plain(v));
        expect(formatPercent(v)).toBe(`${plain(v)}%`);
        expect(formatCount(Math.round(v))).toBe(count(Math.round(v)));
      }),
      { numRuns: 5000 },
    );
  });

  it('writes date-times as toLocaleDateString does, in the local time zone', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (d) => {
          expect(formatDateTime(d.toISOString())).toBe(d.toLocaleDateString('en-US'));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never shows a sign on zero', () => {
    expect(formatMoney(-0.001)).toBe('$0');
    expect(formatNumber(-0.001)).toBe('0');
    expect(formatCount(-0)).toBe('0');
    expect(formatCount(1_000_000)).toBe('1,000,000');
  });
});
