import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient } from '../../../test/factories.ts';
import { importRoll, type ImportOutcome } from './import.service.ts';
import { unpackRecord } from '../properties/record-codec.ts';
import { recordSourceFor } from './record-sources.ts';

/*
 * The real Lyme, NH roll (public records, real owners and quirks): converted by the project's script
 * exactly as a person would run it, imported through the real pipeline, and checked against the
 * source files. The data lives outside the repository (../shared); without it these tests are skipped.
 */

const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const sourceDir = path.resolve(repoRoot, '../shared/data/realworld/lyme-nh');
const haveData = fs.existsSync(path.join(sourceDir, 'lyme_cama_2022.csv'));
if (!haveData) console.warn(`Lyme NH tests skipped: ${sourceDir} is not there (the shared real-world data).`);

type Row = Record<string, string>;
const readCsv = (file: string): Row[] =>
  parse(fs.readFileSync(path.join(sourceDir, file)), {
    columns: true,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
  }) as Row[];

const ctx = setupTestApp();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-lyme-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!haveData)('Lyme, NH real roll', () => {
  let outcome: ImportOutcome;
  let clientId: number;
  let cama: Row[];
  let stored: Map<string, Record<string, unknown> & { Owners: Array<Record<string, string>> }>;
  let convertOutput: string;

  beforeAll(async () => {
    const out = path.join(tmp, 'lyme.jsonl');
    const tsx = createRequire(import.meta.url).resolve('tsx/cli');
    const run = spawnSync(
      process.execPath,
      [tsx, path.join(repoRoot, 'scripts/lyme/convert-lyme.ts'), '--source', sourceDir, '--out', out],
      { encoding: 'utf8', timeout: 120_000 },
    );
    if (run.status !== 0) throw new Error(`convert-lyme failed: ${run.stderr}`);
    convertOutput = run.stdout;

    const client = await buildClient(ctx.db, {
      city: 'Lyme',
      stateProvince: 'New Hampshire',
      description: 'Town of Lyme',
    });
    clientId = client.id;
    outcome = await importRoll(
      ctx.db,
      { clientId, userId: null, actor: 'test', fileName: 'lyme.jsonl' },
      recordSourceFor(out),
    );
    cama = readCsv('lyme_cama_2022.csv');
    const rows = await queryRows<{ record: string }>(
      ctx.db,
      sql`select r.record from property_records r join clients c on c.active_roll_id = r.roll_id where c.id = ${clientId}`,
    );
    stored = new Map(
      rows.map((r) => {
        const record = JSON.parse(unpackRecord(r.record)) as Record<string, unknown> & {
          Owners: Array<Record<string, string>>;
        };
        return [record.Account as string, record];
      }),
    );
  }, 300_000);

  const property = async (account: string) => {
    const res = await ctx.app.inject(`/api/fullproperty/${account}?city=Lyme&state=NH`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('imports every parcel of the CAMA roll', async () => {
    expect(outcome.errors).toEqual([]);
    expect(outcome.ok).toBe(true);
    expect(convertOutput).toMatch(/^Wrote 1083 Lyme, NH records/);
    expect(outcome.total).toBe(cama.length);
    expect(cama.length).toBe(1083);
    expect(stored.size).toBe(1083);
    const [client] = await queryRows<{ parcel_count: number }>(
      ctx.db,
      sql`select parcel_count from clients where id = ${clientId}`,
    );
    expect(client!.parcel_count).toBe(1083);
  });

  it('keeps map/lot, owner and values of every parcel as the CAMA file has them', () => {
    for (const c of cama) {
      const r = stored.get(c.LocalCamaId!)!;
      expect(r, c.LocalCamaId).toBeDefined();
      expect(r.MapLot).toBe(c.DisplayId);
      expect(r.Owners[0]?.OwnerName).toBe(c.OwnerName!.replace(/\s+/g, ' ').trim());
      expect(r.LandValue).toBe(Number(c.TaxLand));
      expect(r.TotalBuildingValue).toBe(Number(c.TaxBldg) + Number(c.TaxFeatures));
      expect(r.Taxable).toBe(Number(c.TaxTotal));
    }
  });

  it('reads back a whole record: owners with restored ZIP, values, 2022 tax at 23.98, last sale', async () => {
    const r = await property('100021');
    expect(r).toMatchObject({
      Account: '100021',
      MapLot: '406-22-2',
      StreetNumber: '288',
      StreetName: 'ORFORD RD',
      LandValue: 230900,
      TotalBuildingValue: 969400 + 159400,
      Taxable: 1359700,
      TotalAcres: 158.82,
      Owners: [
        {
          OwnerName: 'CRAGER, MARK A. & SHELLY J. TTE',
          Address1: '288 ORFORD RD',
          City: 'LYME',
          State: 'NH',
          ZipCode: '03768',
        },
        { OwnerName: 'CRAGER, MARK A & SHELLY J. JOINT REV TRT' },
      ],
    });
    // SOURCE.md: 1,359,700 × 23.98 / 1000 = 32,605.61.
    expect(r.Taxes[0]).toMatchObject({
      TaxYear: 2022,
      Rate: 0.02398,
      TaxableValue: 1359700,
      OriginalTaxAmount: 32605.61,
    });
    // The newest transfer in the owner history is the last sale.
    const history = readCsv('lyme_vgsi_owner_history_2023-05-02.csv')
      .filter((h) => h.PID === '100021')
      .sort((a, b) => b['Sale Date']!.localeCompare(a['Sale Date']!));
    expect(r.Sales).toHaveLength(history.length);
    expect(r.Sales[0]).toMatchObject({
      SaleDate: history[0]!['Sale Date'],
      SalePrice: Number(history[0]!['Sale Price']),
      Book: history[0]!.Book,
      Page: history[0]!.Page,
    });
    expect(r.Buildings[0]).toMatchObject({
      BuildingType: 'Modern/Contemp',
      Bedrooms: 4,
      FullBaths: 5,
      YearBuilt: 2004,
    });
  });

  it('splits the messy street addresses: condo units, joined numbers, no number', async () => {
    expect(await property('100142')).toMatchObject({
      StreetNumber: '85',
      Apartment: '1010',
      StreetName: 'DARTMOUTH COLLEGE HY',
    });
    const joined = cama.find((c) => c.StreetAddress === '26+28 PLEASANT ST')!;
    expect(stored.get(joined.LocalCamaId!)).toMatchObject({
      StreetNumber: '26+28',
      StreetName: 'PLEASANT ST',
    });
    const unit = cama.find((c) => c.StreetAddress === '6 ON THE COMMON UNIT #3')!;
    expect(stored.get(unit.LocalCamaId!)).toMatchObject({
      StreetNumber: '6',
      Apartment: '3',
      StreetName: 'ON THE COMMON',
    });
    const bare = cama.find((c) => c.StreetAddress === 'FLOWAGE RIGHTS')!;
    expect(stored.get(bare.LocalCamaId!)).toMatchObject({ StreetNumber: '', StreetName: 'FLOWAGE RIGHTS' });
  });

  it('restores the leading zero of every ZIP code the extract dropped', () => {
    for (const c of cama) {
      const zip = stored.get(c.LocalCamaId!)!.Owners[0]?.ZipCode ?? '';
      if (/^\d{4}$/.test(c.MailingZip!)) expect(zip).toBe(`0${c.MailingZip}`);
      expect(zip).not.toMatch(/^\d{4}$/);
    }
  });
});
