import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setupTestApp, testEngine } from '../../../../test/helpers.ts';
import { buildClient } from '../../../../test/factories.ts';
import { storedRecords } from '../../../../test/real-exports.ts';
import { importRoll } from '../import.service.ts';
import { recordSourceFor } from '../record-sources.ts';
import { openMappedSource } from './mapped-source.ts';
import { readMapping } from './mapping-file.ts';

/*
 * Lossless coercion in every import path, through the real import service: a number where the record
 * says text is its decimal text, text that is a plain number where the record says number is that
 * number; anything else is a problem naming the line, the field and (for a mapped export) the column.
 */

const ctx = setupTestApp();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-coercion-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

const target = (clientId: number, fileName: string) => ({ clientId, userId: null, actor: 'test', fileName });

describe('lossless coercion', () => {
  it('JSON Lines: numbers as text and text as numbers are taken as what they say', async () => {
    const client = await buildClient(ctx.db, { city: 'Coerce', stateProvince: 'Maine' });
    const roll = file(
      'roll.jsonl',
      [
        JSON.stringify({
          Account: 1042,
          StreetNumber: 12,
          MapLot: 3.5,
          LandValue: '1,234',
          Taxable: ' 42 ',
          Sales: [{ SalePrice: '$245,000.50', Book: 35123, Page: 118 }],
          Taxes: [{ TaxYear: '2025', Rate: '0.0122' }],
        }),
        JSON.stringify({ Account: '1043', StreetName: 'POND RD' }),
      ].join('\n'),
    );
    const outcome = await importRoll(
      ctx.db,
      target(client.id, 'roll.jsonl'),
      recordSourceFor(roll),
      () => {},
      {
        engine: testEngine,
      },
    );
    expect(outcome.errors).toEqual([]);
    expect(outcome.ok).toBe(true);
    const r = (await storedRecords(ctx.db, client.id)).get('1042')!;
    expect(r).toMatchObject({
      StreetNumber: '12',
      MapLot: '3.5',
      LandValue: 1234,
      Taxable: 42,
      Sales: [{ SalePrice: 245000.5, Book: '35123', Page: '118' }],
      Taxes: [{ TaxYear: 2025, Rate: 0.0122 }],
    });
  });

  it('JSON Lines: anything else is still a problem naming line and field, and nothing is written', async () => {
    const client = await buildClient(ctx.db, { city: 'Coerce Bad', stateProvince: 'Maine' });
    const roll = file(
      'bad.jsonl',
      `${JSON.stringify({ Account: '1', LandValue: '12abc' })}\n${JSON.stringify({ Account: '2', Sales: [{ SalePrice: 'N/A' }] })}\n`,
    );
    const outcome = await importRoll(
      ctx.db,
      target(client.id, 'bad.jsonl'),
      recordSourceFor(roll),
      () => {},
      {
        engine: testEngine,
      },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.errors).toEqual([
      'line 1: LandValue: expected a number, got "12abc"',
      'line 2: Sales[0].SalePrice: expected a number, got "N/A"',
    ]);
    expect((await storedRecords(ctx.db, client.id)).size).toBe(0);
  });

  it('a mapped export: the problem names line, portal field and source column', async () => {
    const client = await buildClient(ctx.db, { city: 'Coerce Mapped', stateProvince: 'Maine' });
    const mapping = readMapping(
      {
        fields: {
          Account: 'ACCT',
          LandValue: 'LAND',
          StreetName: 'STREET',
          Sales: { items: [{ fields: { SalePrice: 'PRICE' } }] },
        },
      },
      'test',
    );
    const input = await openMappedSource(mapping, [
      {
        path: file(
          'town.csv',
          'ACCT,LAND,STREET,PRICE\n1,"1,234",MAIN ST,100\n2, 42 ,x,N/A\n3,10,POND RD,\n',
        ),
      },
    ]);
    const outcome = await importRoll(ctx.db, target(client.id, 'town.csv'), input.source, () => {}, {
      engine: testEngine,
    });
    expect(outcome.errors).toEqual([
      'line 3: Sales[0].SalePrice (column "PRICE"): expected a number, got "N/A"',
    ]);
    const long = await openMappedSource(mapping, [
      { path: file('long.csv', `ACCT,LAND,STREET,PRICE\n1,1,${'X'.repeat(201)},1\n`) },
    ]);
    const tooLong = await importRoll(ctx.db, target(client.id, 'long.csv'), long.source, () => {}, {
      engine: testEngine,
    });
    expect(tooLong.errors).toEqual(['line 2: StreetName (column "STREET"): must be at most 200 characters']);
    const good = await openMappedSource(mapping, [
      { path: file('good.csv', 'ACCT,LAND,STREET,PRICE\n1,"1,234",MAIN ST,100\n2, 42 ,x,\n') },
    ]);
    const ok = await importRoll(ctx.db, target(client.id, 'good.csv'), good.source, () => {}, {
      engine: testEngine,
    });
    expect(ok.ok).toBe(true);
    expect((await storedRecords(ctx.db, client.id)).get('2')).toMatchObject({
      LandValue: 42,
      StreetName: 'x',
    });
  });
});
