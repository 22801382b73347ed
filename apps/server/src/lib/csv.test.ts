import { describe, expect, it } from 'vitest';
import { csvRow, startsFormula } from './csv.ts';

describe('csvRow (issue 37: CSV injection)', () => {
  it('quotes every text cell, writes numbers bare and null empty', () => {
    expect(csvRow(['x;=1+2;y', 'a "b"', 12.5, null, 'plain'])).toBe('"x;=1+2;y","a ""b""",12.5,,"plain"\r\n');
    expect(csvRow([Number.NaN, Infinity])).toBe(',\r\n');
  });

  it('neutralises a formula start, also after spaces, line breaks, no-break and other Unicode blanks', () => {
    for (const cell of [
      '=1+2',
      '+1',
      '-1',
      '@SUM(A1)',
      '\t1',
      '\r1',
      ' =1',
      '\n=1',
      '\u00a0=1',
      '\u2003+1',
      '\u3000@x',
      '＝1+2',
    ])
      expect(csvRow([cell]), JSON.stringify(cell)).toBe(`"'${cell}"\r\n`);
    // Invisible characters before the sign, and its small forms (second outside attack, issue 46).
    for (const cell of [
      '\ufe66cmd',
      '\u200c=1',
      '\u200d=1',
      '\u2061=1',
      '\u00ad=1',
      '\u061c=1',
      '\u200e\u2064+1',
      '\ufe0f@x',
      '\u3164=1',
      '\ufe62\ufe63',
    ])
      expect(startsFormula(cell), JSON.stringify(cell)).toBe(true);
    for (const cell of ['SMITH, JOHN', '\u00adSMITH', '\u200d', 'x;=1+2;y', '', ' ', 'a=b'])
      expect(startsFormula(cell), JSON.stringify(cell)).toBe(false);
  });
});
