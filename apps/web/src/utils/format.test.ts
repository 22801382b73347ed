import { describe, expect, it } from 'vitest';
import {
  buildingPlusLand,
  formatAcres,
  formatLotArea,
  formatCount,
  formatDate,
  formatDateAndTime,
  formatLocation,
  formatMoney,
  formatNumber,
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

describe('dates (one style: MM/DD/YYYY)', () => {
  it('shows calendar dates as MM/DD/YYYY without shifting the day by time zone', () => {
    expect(formatDate('2020-01-01')).toBe('01/01/2020');
    expect(formatDate('1999-12-31T00:00:00.000Z')).toBe('12/31/1999');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
  it("shows instants as the visitor's day, in the same style", () => {
    const d = new Date(2024, 6, 4, 15, 30);
    expect(formatDate(d.toISOString())).toBe('07/04/2024');
    expect(formatDateAndTime(d.toISOString())).toBe('07/04/2024, 3:30 PM');
  });
});

describe('numbers and locations', () => {
  it('formats areas with separators and up to 2 decimals, acres always with 2', () => {
    expect(formatNumber(1234.567)).toBe('1,234.57');
    expect(formatNumber(0.5)).toBe('0.5');
    expect(formatNumber(null)).toBe('');
    expect(formatAcres(0.5)).toBe('0.50');
    expect(formatAcres(3)).toBe('3.00');
    expect(formatAcres(1234.567)).toBe('1,234.57');
    expect(formatAcres(null)).toBe('');
  });
  it('gives a lot under an acre its square feet beside the acres', () => {
    // Cambridge's 212 THIRD ST: 1,057 sq ft.
    expect(formatLotArea(1056.9999528 / 43_560)).toBe('0.02 (1,057 sq ft)');
    expect(formatLotArea(0.5)).toBe('0.50 (21,780 sq ft)');
    expect(formatLotArea(1)).toBe('1.00');
    expect(formatLotArea(12.25)).toBe('12.25');
    expect(formatLotArea(0)).toBe('0.00');
    expect(formatLotArea(null)).toBe('');
  });
  it('writes the apartment after the street as a unit', () => {
    expect(formatLocation({ StreetNumber: '37', Apartment: '1', StreetName: 'NORTH RD' })).toBe(
      '37 NORTH RD, UNIT 1',
    );
    expect(formatLocation({ StreetNumber: '12', Apartment: 'B', StreetName: 'Main St' })).toBe(
      '12 Main St, Unit B',
    );
    expect(formatLocation({ StreetNumber: '5', Apartment: 'APT 4', StreetName: 'ELM ST' })).toBe(
      '5 ELM ST, APT 4',
    );
    expect(formatLocation({ StreetNumber: '', Apartment: '', StreetName: 'Main St' })).toBe('Main St');
  });
  it('adds building and land values, treating one missing value as 0', () => {
    expect(buildingPlusLand(100_000, 25_000)).toBe(125_000);
    expect(buildingPlusLand(null, 25_000)).toBe(25_000);
    expect(buildingPlusLand(null, null)).toBeNull();
  });
});

describe('signs', () => {
  it('never shows a sign on zero', () => {
    expect(formatMoney(-0.001)).toBe('$0');
    expect(formatNumber(-0.001)).toBe('0');
    expect(formatCount(-0)).toBe('0');
    expect(formatCount(1_000_000)).toBe('1,000,000');
  });
});
