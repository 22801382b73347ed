import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  accountText,
  convertArea,
  mapLot,
  parseNumber,
  perThousand,
  restoreZip,
  splitBookPage,
  splitStreetAddress,
  taxAmount,
  toDate,
  toFlag,
  toFraction,
  toInteger,
  toStories,
} from './transforms.ts';

describe('street address split', () => {
  it.each([
    ['12 MAIN ST', '12', 'MAIN ST', ''],
    ['12-14 MAIN ST', '12-14', 'MAIN ST', ''],
    ['4 CANAL PK #PH10', '4', 'CANAL PK', 'PH10'],
    ['37 NORTH RD UNIT 1', '37', 'NORTH RD', '1'],
    ['0 OFF GOOSE POND RD', '', 'OFF GOOSE POND RD', ''],
    ['26+28 PLEASANT ST', '26+28', 'PLEASANT ST', ''],
    ['6 ON THE COMMON UNIT #3', '6', 'ON THE COMMON', '3'],
    ['85  DARTMOUTH COLLEGE HY #1010', '85', 'DARTMOUTH COLLEGE HY', '1010'],
    ['32  SECOND ST  #1', '32', 'SECOND ST', '1'],
    ['63-65-65R OTIS ST #65R/1', '63-65-65R', 'OTIS ST', '65R/1'],
    ['58 1/2 SPRING ST', '58 1/2', 'SPRING ST', ''],
    ['14 1/2-16 1/2 WOODBRIDGE ST #14 1/2', '14 1/2-16 1/2', 'WOODBRIDGE ST', '14 1/2'],
    ['220-222.5 HURLEY ST', '220-222.5', 'HURLEY ST', ''],
    ['37-39 Mt Vernon St', '37-39', 'Mt Vernon St', ''],
    ['MONSIGNOR OBRIEN HWY', '', 'MONSIGNOR OBRIEN HWY', ''],
    ['FLOWAGE RIGHTS', '', 'FLOWAGE RIGHTS', ''],
    ['10 APT 2B RD', '10', 'APT 2B RD', ''],
    ['89-91 GORE ST #89/91#1', '89-91', 'GORE ST', '89/91#1'],
    ['14 1/2- 16 1/2 WOODBRIDGE ST #161/2', '14 1/2-16 1/2', 'WOODBRIDGE ST', '161/2'],
    ['UNIT 1 RD', '', 'UNIT 1 RD', ''],
    // Lebanon, NH's Vision export, as its locations come.
    ['5 MEADOW BROOK APTS', '5', 'MEADOW BROOK APTS', ''],
    ['20 MORGAN DR Unit 21', '20', 'MORGAN DR', '21'],
    ['20 MORGAN DR #Unit 10', '20', 'MORGAN DR', '10'],
    ['023B PEABODY ST', '023B', 'PEABODY ST', ''],
    ['54 + 56 ETNA RD', '54+56', 'ETNA RD', ''],
    ['6 OAK RIDGE RD #1', '6', 'OAK RIDGE RD', '1'],
    ['0 HILLTOP DR', '', 'HILLTOP DR', ''],
    ['17 FARAWAY LN ', '17', 'FARAWAY LN', ''],
  ])('%s → %s / %s / %s', (address, number, street, unit) => {
    expect(splitStreetAddress(address)).toEqual({ number, street, unit });
  });
});

describe('every address in docs/import-format.md splits as the table there says', () => {
  const doc = fs.readFileSync(
    path.resolve(import.meta.dirname, '../../../../../../docs/import-format.md'),
    'utf8',
  );
  const table = /#### How an address is split[\s\S]*?\n\| address[^\n]*\n\|[-| ]+\n((?:\|[^\n]*\n)+)/.exec(
    doc,
  )![1]!;
  const cases = table
    .trim()
    .split('\n')
    .map((row) =>
      row
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim().replace(/^`|`$/g, '')),
    );
  it('has the cases', () => expect(cases.length).toBeGreaterThan(10));
  it.each(cases)('%s → %s / %s / %s', (address, number, street, unit) => {
    expect(splitStreetAddress(address!)).toEqual({ number, street, unit });
  });
});

describe('areas', () => {
  it('converts square feet to acres (4 decimals) and acres to square feet', () => {
    expect(convertArea('43,560', 'squareFeet', 'acres')).toEqual({ value: 1 });
    expect(convertArea('12478.9999752', 'squareFeet', 'acres')).toEqual({ value: 0.2865 });
    expect(convertArea('2.5', 'acres', 'squareFeet')).toEqual({ value: 108900 });
    expect(convertArea('158.82', 'acres', 'acres')).toEqual({ value: 158.82 });
    expect(convertArea('big', 'acres', 'acres')).toEqual({ problem: 'expected an area, got "big"' });
  });
});

describe('dates', () => {
  it.each([
    ['7/5/2005', '2005-07-05'],
    ['11/24/2009', '2009-11-24'],
    ['20190501', '2019-05-01'],
    ['2019-05-01', '2019-05-01'],
    ['2008-06-20 00:00:00.000', '2008-06-20'],
    ['2024-04-01T00:00:00Z', '2024-04-01'],
    ['7/5/2005 12:00:00 AM', '2005-07-05'],
  ])('%s → %s', (text, iso) => {
    expect(toDate(text)).toEqual({ value: iso });
  });
  it('names what is wrong with a date it cannot read', () => {
    expect(toDate('2/30/2020')).toEqual({ problem: '"2/30/2020" is not a real date' });
    // A real date in an unlikely year is read as written: the import warns of it and publishes it.
    expect(toDate('07/23/0987')).toEqual({ value: '0987-07-23' });
    expect(toDate('May 1 2019')).toEqual({
      problem: 'expected a date (M/D/YYYY, YYYYMMDD or YYYY-MM-DD), got "May 1 2019"',
    });
  });
});

describe('money and counts written as text', () => {
  it.each([
    ['$1,234.50', 1234.5],
    ['1,234', 1234],
    [' 42 ', 42],
    ['-3.5', -3.5],
    ['(250.00)', -250],
    ['$95,000', 95000],
    ['0', 0],
  ])('%s → %d', (text, n) => {
    expect(parseNumber(text)).toBe(n);
  });
  it.each([
    ['2.3e-05', 0.000023],
    ['1E+06', 1_000_000],
    ['1e5', 100_000],
    ['-4.5E2', -450],
  ])('%s (scientific notation, as spreadsheets write it) → %d', (text, n) => {
    expect(parseNumber(text)).toBe(n);
  });
  it.each(['N/A', '12abc', 'e5', '1e', '1,23', '$', '', '1e999'])('%s is not a number', (text) => {
    expect(parseNumber(text)).toBeNull();
  });
  it('counts are whole numbers, stories may be fractions', () => {
    expect(toInteger('1,978')).toEqual({ value: 1978 });
    expect(toInteger('2.5')).toEqual({ problem: 'expected a whole number, got "2.5"' });
    expect(toFraction('1 1/4')).toEqual({ value: 1.25 });
    expect(toFraction('1.75')).toEqual({ value: 1.75 });
  });
  it.each([
    ['1', 1],
    ['2.00', 2],
    ['1 1/2', 1.5],
    ['1H', 1.5],
    ['1T', 1.75],
    ['1A', 1.25],
    ['2A', 2.25],
    ['2h', 2.5],
  ])('stories %s → %d (Vision codes as Vision writes them)', (text, n) => {
    expect(toStories(text)).toEqual({ value: n });
  });
  it('names a story code it does not know instead of dropping it', () => {
    expect(toStories('1Q')).toEqual({
      problem: 'unknown story code "1Q" (Vision\'s codes add H, T, A to the whole stories)',
    });
    expect(toStories('tall')).toEqual({ problem: 'expected a number of stories, got "tall"' });
  });
});

describe('book and page in one cell', () => {
  it.each([
    [' 40018/ 542', '40018', '542'],
    ['2013/0352', '2013', '352'],
    ['002833/0693', '2833', '693'],
    ['   U78/ 163', 'U78', '163'],
    ['    43/ 83E', '43', '83E'],
    ['1379267', '1379267', ''],
    ['/', '', ''],
  ])('%s → %s / %s', (text, book, page) => {
    expect(splitBookPage(text)).toEqual({ book, page });
  });
});

describe('map/lot', () => {
  it('reads Vision MBLU: parts at "/", spaces and leading zeros dropped, joined by "-"', () => {
    expect(mapLot(['020/ 003/ 082/ /'])).toBe('20-3-82');
    expect(mapLot(['201/  86/  /  / '])).toBe('201-86');
    expect(mapLot(['006/ 000/ 012A/ /'])).toBe('6-0-012A');
  });
  it('joins parts', () => {
    expect(mapLot(['R03', '012', '', ''])).toBe('R03-12');
    expect(mapLot(['406', '22', '2'])).toBe('406-22-2');
  });
});

describe('flags', () => {
  it.each([
    ['Y', true],
    ['N', false],
    ['1', true],
    ['0', false],
    ['TRUE', true],
    ['False', false],
    ['yes', true],
  ])('%s → %s', (text, flag) => {
    expect(toFlag(text)).toEqual({ value: flag });
  });
  it('anything else is a problem', () => {
    expect(toFlag('maybe')).toEqual({
      problem: 'expected a yes/no value (Y/N, 1/0, TRUE/FALSE), got "maybe"',
    });
  });
});

describe('tax from a rate', () => {
  it('multiplies the rate by the taxable value, to the cent', () => {
    // Lyme's SOURCE.md: 1,359,700 × 23.98 / 1000 = 32,605.61.
    const rate = perThousand('23.98');
    expect(rate).toEqual({ value: 0.02398 });
    expect(taxAmount(0.02398, 1_359_700)).toBe(32605.61);
    expect(taxAmount(0.0122, 200_500)).toBe(2446.1);
  });
});

describe('ZIP codes and accounts', () => {
  it('restores the leading zero a number column dropped', () => {
    expect(restoreZip('3768')).toBe('03768');
    expect(restoreZip('3768-1234')).toBe('03768-1234');
    expect(restoreZip('02138')).toBe('02138');
    expect(restoreZip('0')).toBe('');
    expect(restoreZip('SW1A 1AA')).toBe('SW1A 1AA');
  });
  it('makes text fit for an account number', () => {
    expect(accountText('8-61-PH10')).toBe('8-61-PH10');
    expect(accountText('8-61-65R/1')).toBe('8-61-65R-1');
    expect(accountText('8-61-')).toBe('8-61');
    expect(accountText('12 MAIN ST')).toBe('12-MAIN-ST');
  });
});
