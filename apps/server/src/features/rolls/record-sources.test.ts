import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SourceRecord } from './roll-rows.ts';
import {
  csvSource,
  jsonlSource,
  recordSourceFor,
  rollFormatOf,
  UnsupportedRollFileError,
} from './record-sources.ts';
import { parseNumberCell, resolveColumn } from './csv-columns.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-sources-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(ext: string, text: string): string {
  const p = path.join(dir, `f${++n}.${ext}`);
  fs.writeFileSync(p, text);
  return p;
}

async function collect(source: () => AsyncIterable<SourceRecord>): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const r of source()) out.push(r);
  return out;
}

const values = (items: SourceRecord[]) => items.map((i) => ('value' in i ? i.value : i.error));
const lines = (items: SourceRecord[]) => items.map((i) => i.line);

describe('JSON Lines source', () => {
  it('yields one record per line with its line number, skipping blank lines', async () => {
    const p = file('jsonl', '\uFEFF{"Account":"1"}\n\n  \n{"Account":"2"}\r\n{"Account":"3"}');
    const items = await collect(jsonlSource(p));
    expect(values(items)).toEqual([{ Account: '1' }, { Account: '2' }, { Account: '3' }]);
    expect(lines(items)).toEqual([1, 4, 5]);
  });

  it('names the line of text that is not JSON, or not one record', async () => {
    const p = file('jsonl', '{"Account":"1"}\n{"Account": 2,}\n[1,2]\n"text"\n{"Account":"5"}\n');
    const items = await collect(jsonlSource(p));
    expect(lines(items)).toEqual([1, 2, 3, 4, 5]);
    expect(values(items)[1]).toMatch(/^not valid JSON \(.+\)$/);
    expect(values(items)[2]).toBe('expected a JSON object (one property record), got a list');
    expect(values(items)[3]).toBe('expected a JSON object (one property record), got "text"');
    expect(values(items)[4]).toEqual({ Account: '5' });
  });

  it('can be read again (each import pass opens the file afresh)', async () => {
    const source = jsonlSource(file('jsonl', '{"Account":"1"}\n{"Account":"2"}\n'));
    expect(await collect(source)).toEqual(await collect(source));
  });

  it('reads lines whole across blocks and 1 MB reads, multi-byte characters and CRLF included', async () => {
    // 3,000 lines of about 1 kB: several 500-line blocks, and reads of 1 MB that end mid-line and, for
    // some, inside a two- or three-byte character.
    const owner = (i: number) => `ÉLODIE – ${'Ø'.repeat(i % 7)}${'x'.repeat(900 + (i % 13))}`;
    const body = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ Account: String(i + 1), Owner: owner(i) }),
    );
    const items = await collect(jsonlSource(file('jsonl', `\uFEFF${body.join('\r\n')}`)));
    expect(items).toHaveLength(3000);
    expect(items.every((it, i) => it.line === i + 1 && 'value' in it)).toBe(true);
    expect(values(items).every((v, i) => JSON.stringify(v) === body[i])).toBe(true);
  });

  it('stops at a line longer than 16 MB, naming it, after the lines before it', async () => {
    const long = `{"Account":"2","Owner":"${'x'.repeat(17 * 1024 * 1024)}"}`;
    const items = await collect(jsonlSource(file('jsonl', `{"Account":"1"}\n${long}\n{"Account":"3"}\n`)));
    expect(lines(items)).toEqual([1, 2]);
    expect(values(items)).toEqual([{ Account: '1' }, 'line is longer than 16 MB']);
  });

  it('takes a byte-order mark off line 1 only', async () => {
    const items = await collect(jsonlSource(file('jsonl', '\uFEFF{"Account":"1"}\n\uFEFF{"Account":"2"}\n')));
    expect(values(items)[0]).toEqual({ Account: '1' });
    expect(values(items)[1]).toMatch(/^not valid JSON/);
  });

  it('decodes invalid UTF-8 as U+FFFD within its line, leaving the next line whole', async () => {
    // A stray continuation byte, and a three-byte character cut off by the line break.
    const bytes = Buffer.concat([
      Buffer.from('{"Account":"1","Owner":"A'),
      Buffer.from([0x80]),
      Buffer.from('B"}\n{"Account":"2","Owner":"C'),
      Buffer.from([0xe2, 0x82]),
      Buffer.from('\n{"Account":"3","Owner":"ÉD"}\n'),
    ]);
    const p = path.join(dir, `f${++n}.jsonl`);
    fs.writeFileSync(p, bytes);
    const items = await collect(jsonlSource(p));
    expect(values(items)[0]).toEqual({ Account: '1', Owner: 'A\uFFFDB' });
    expect(values(items)[1]).toMatch(/^not valid JSON/);
    expect(values(items)[2]).toEqual({ Account: '3', Owner: 'ÉD' });
    expect(lines(items)).toEqual([1, 2, 3]);
  });

  it('keeps every line whole in its blocks, lines cut by a read included', async () => {
    // About 6 MB in lines of about 3 kB, some cut by a read.
    const body = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ Account: String(i + 1), Owner: `${'Ø'.repeat(i % 5)}${String(i).repeat(700)}` }),
    );
    const source = jsonlSource(file('jsonl', `${body.join('\n')}\n`));
    const got: string[] = [];
    for await (const block of source.lineBlocks!())
      got.push(...Buffer.from(block.bytes).toString('utf8').split('\n').slice(0, -1));
    expect(got).toEqual(body);
  });

  it('reports reading progress in bytes', async () => {
    const text = `${'{"Account":"1"}\n'.repeat(1000)}`;
    const seen: number[] = [];
    await collect(jsonlSource(file('jsonl', text), { onRead: (b) => seen.push(b) }));
    expect(seen.at(-1)).toBe(Buffer.byteLength(text));
  });
});

describe('CSV source', () => {
  it('maps flat columns, numbered groups and the unnumbered Owner/Sale shorthand', async () => {
    const p = file(
      'csv',
      [
        'Account,Map Lot,StreetNumber,StreetName,LandValue,TotalAcres,OwnerName,Owner2Name,Owner2City,SaleDate,SalePrice,Sale2Date,Sale2Price,Land1Description,Land1Amount,Building1Type,Building1Bedrooms,Tax1Year,Tax1Rate,Image1,PropertyCode,PropertyCodeDescription',
        '00042,R01-002,12,MAIN ST,"45,500",1.25,"DOE, JANE",DOE JOHN,PORTLAND,2019-05-01,$200000,2001-02-03,90000,House Lot,1,Cape,3,2024,0.01485,/api/files/image/a.jpg,101,Property Code',
      ].join('\n'),
    );
    const [item] = await collect(csvSource(p));
    expect(item).toMatchObject({
      line: 2,
      value: {
        Account: '00042',
        MapLot: 'R01-002',
        StreetNumber: '12',
        StreetName: 'MAIN ST',
        LandValue: 45500,
        TotalAcres: 1.25,
        Owners: [{ OwnerName: 'DOE, JANE' }, { OwnerName: 'DOE JOHN', City: 'PORTLAND' }],
        Sales: [
          { SaleDate: '2019-05-01', SalePrice: 200000 },
          { SaleDate: '2001-02-03', SalePrice: 90000 },
        ],
        Land: [{ LandDescription: 'House Lot', Amount: 1 }],
        Buildings: [{ BuildingType: 'Cape', Bedrooms: 3 }],
        Taxes: [{ TaxYear: 2024, Rate: 0.01485 }],
        Images: ['/api/files/image/a.jpg'],
        PropertyCode: { Description: 'Property Code', UserDefinedValue: '101' },
      },
    });
  });

  it('leaves empty cells and empty group items out, keeping the order of the rest', async () => {
    const p = file('csv', 'Account,Owner1Name,Owner2Name,Owner3Name,Sale1Price,LandValue\n7,A,,C,,\n');
    const [item] = await collect(csvSource(p));
    expect(item).toEqual({
      line: 2,
      value: { Account: '7', Owners: [{ OwnerName: 'A' }, { OwnerName: 'C' }] },
      field: expect.any(Function),
    });
  });

  it('keeps a number cell that is not a number as text, so validation names it', async () => {
    const p = file('csv', 'Account,SalePrice,Owner3Name,Sale3Price\n1,N/A,X,12abc\n');
    const [item] = await collect(csvSource(p));
    if (!('value' in item!)) throw new Error('expected a record');
    expect(item.value).toMatchObject({ Sales: [{ SalePrice: 'N/A' }, { SalePrice: '12abc' }] });
    // Issue paths point back at the columns as the file names them.
    expect(item.field?.(['Sales', 0, 'SalePrice'])).toBe('SalePrice');
    expect(item.field?.(['Sales', 1, 'SalePrice'])).toBe('Sale3Price');
    expect(item.field?.(['Owners', 0, 'OwnerName'])).toBe('Owner3Name');
    expect(item.field?.(['Account'])).toBe('Account');
  });

  it('reads SuppressOwner as yes/no, and keeps any other cell as text so validation names it', async () => {
    const p = file('csv', 'Account,SuppressOwner\n1,Y\n2,false\n3,1\n4,\n5,maybe\n');
    const rows = values(await collect(csvSource(p)));
    expect(rows.map((r) => (r as { SuppressOwner?: unknown }).SuppressOwner)).toEqual([
      true,
      false,
      true,
      undefined,
      'maybe',
    ]);
  });

  it('reports the line a row starts on, across quoted line breaks, blank lines and CRLF', async () => {
    const p = file(
      'csv',
      'Account,StreetName\r\n1,"LINE ONE\r\nLINE TWO"\r\n\r\n2,ELM\r\n3,"A\nB\nC"\r\n4,OAK',
    );
    const items = await collect(csvSource(p));
    expect(lines(items)).toEqual([2, 5, 6, 9]);
    expect(values(items)[0]).toEqual({ Account: '1', StreetName: 'LINE ONE\r\nLINE TWO' });
  });

  it('rejects a header it cannot map, naming every bad column', async () => {
    const p = file('csv', 'Acount,Onwer1Name,Sale1Prize,MapLot,Map Lot\n1,2,3,4,5\n');
    const items = await collect(csvSource(p));
    expect(items.every((i) => i.line === 1 && 'error' in i)).toBe(true);
    expect(values(items)).toEqual([
      'unknown column "Acount"',
      'unknown column "Onwer1Name"',
      expect.stringMatching(/^unknown column "Sale1Prize" \(Sale1… takes SaleDate, SalePrice/),
      'columns "MapLot" and "Map Lot" both fill MapLot',
      'no Account column',
    ]);
  });

  it('rejects a row with more cells than the header, and broken quoting', async () => {
    const p = file('csv', 'Account,StreetName\n1,ELM,EXTRA\n2,"OAK\n3,PINE\n');
    const items = await collect(csvSource(p));
    expect(items[0]).toEqual({ line: 2, error: 'has 3 cells but the header names 2 columns' });
    expect(items.at(-1)).toMatchObject({ error: expect.stringMatching(/^not valid CSV \(/) });
  });
});

describe('choosing a source', () => {
  it('goes by the file extension', () => {
    expect(rollFormatOf('roll.JSONL')).toBe('jsonl');
    expect(rollFormatOf('roll.ndjson')).toBe('jsonl');
    expect(rollFormatOf('/x/roll.csv')).toBe('csv');
    expect(rollFormatOf('roll.xlsx')).toBeNull();
    expect(() => recordSourceFor('/tmp/upload-123', 'roll.xlsx')).toThrow(UnsupportedRollFileError);
    expect(() => recordSourceFor('/tmp/upload-123', 'roll.csv')).not.toThrow();
  });
});

describe('CSV columns', () => {
  it('parses numbers strictly', () => {
    expect(parseNumberCell('1,234.50')).toBe(1234.5);
    expect(parseNumberCell('-12')).toBe(-12);
    expect(parseNumberCell('.5')).toBe(0.5);
    expect(parseNumberCell('$95,000')).toBe(95000);
    // Scientific notation, as Excel and pandas write small numbers.
    expect(parseNumberCell('2.3e-05')).toBe(0.000023);
    expect(parseNumberCell('1E+06')).toBe(1_000_000);
    for (const bad of ['N/A', '1,23', '12abc', '1.2.3', '$', '-', 'e5', '1e', '0x10'])
      expect(parseNumberCell(bad)).toBe(bad);
  });

  it('matches column names ignoring case, spaces and underscores', () => {
    expect(resolveColumn('owner_1 name')).toEqual({
      to: 'group',
      group: 'Owners',
      n: 1,
      field: 'OwnerName',
      kind: 'text',
    });
    expect(resolveColumn('Sale12SalePrice')).toEqual({
      to: 'group',
      group: 'Sales',
      n: 12,
      field: 'SalePrice',
      kind: 'number',
    });
    expect(resolveColumn('LANDVALUE')).toEqual({ to: 'scalar', field: 'LandValue', kind: 'number' });
    expect(resolveColumn('Land2Code')).toMatchObject({ group: 'Land', n: 2, field: 'LandCode' });
    expect(resolveColumn('TaxLimit')).toEqual({ to: 'udv', field: 'TaxLimit', part: 'UserDefinedValue' });
    expect(resolveColumn('Tax1Year')).toMatchObject({ group: 'Taxes', field: 'TaxYear', kind: 'number' });
    expect(resolveColumn('Building1YearBuilt')).toMatchObject({ group: 'Buildings', kind: 'number' });
    expect(resolveColumn('Image3')).toEqual({ to: 'image', n: 3 });
    expect(resolveColumn('Owner0Name')).toMatch(/numbers run from 1/);
    expect(resolveColumn('LandDescription')).toBe('unknown column "LandDescription"');
  });
});
