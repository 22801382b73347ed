import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import type { PropertyRecord } from '@opp/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient } from '../../../test/factories.ts';
import { haveExample, importExample, realworldDir, storedRecords } from '../../../test/real-exports.ts';
import type { ImportOutcome } from './import.service.ts';

/*
 * The real Lyme, NH roll (public records, real owners and quirks): its files read through the example
 * mapping docs/examples/lyme-nh.json exactly as `portal import --mapping` reads them, imported through
 * the real pipeline, and checked against the source files. The data lives outside the repository
 * (../shared); without it these tests are skipped.
 */

const sourceDir = path.join(realworldDir, 'lyme-nh');
const haveData = haveExample('lyme-nh', 'Lyme NH tests');

type Row = Record<string, string>;
const readCsv = (file: string): Row[] =>
  parse(fs.readFileSync(path.join(sourceDir, file)), {
    columns: true,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
  }) as Row[];

const numberOrNull = (v: string | undefined) => (v?.trim() ? Number(v) : null);

const ctx = setupTestApp();

describe.skipIf(!haveData)('Lyme, NH real roll', () => {
  let outcome: ImportOutcome;
  let clientId: number;
  let cama: Row[];
  let stored: Map<string, PropertyRecord>;

  beforeAll(async () => {
    const client = await buildClient(ctx.db, {
      city: 'Lyme',
      stateProvince: 'New Hampshire',
      description: 'Town of Lyme',
    });
    clientId = client.id;
    outcome = await importExample(ctx.db, clientId, 'lyme-nh');
    cama = readCsv('lyme_cama_2022.csv');
    stored = await storedRecords(ctx.db, clientId);
  }, 300_000);

  const property = async (account: string) => {
    const res = await ctx.app.inject(`/api/fullproperty/${account}?city=Lyme&state=NH`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('imports every parcel of the CAMA roll', async () => {
    expect(outcome.errors).toEqual([]);
    expect(outcome.ok).toBe(true);
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
  it('joins buildings, assessment history and the state tax rates by PID', () => {
    const rates = new Map(
      readCsv('nh_dra_municipal_tax_rates.csv')
        .filter((r) => r.Municipality === 'Lyme')
        .map((r) => [r.Year!, Number(r['Total Rate'])]),
    );
    const history = readCsv('lyme_vgsi_assessment_history_2023-05-02.csv').filter((h) =>
      /^\d{4}$/.test(h['Ass. Year']!),
    );
    let checked = 0;
    for (const h of history) {
      if (h['Ass. Year'] === '2022') continue;
      const tax = stored.get(h.PID!)?.Taxes.find((t) => t.TaxYear === Number(h['Ass. Year']));
      if (!stored.has(h.PID!)) continue;
      expect(tax, `${h.PID} ${h['Ass. Year']}`).toMatchObject({
        LandValue: Number(h.Land),
        BuildingValue: Number(h.Improvements),
        TaxableValue: Number(h.Total),
        // Total × rate per $1,000, to the cent.
        OriginalTaxAmount: expect.closeTo(
          Math.round((Number(h.Total) * rates.get(h['Ass. Year']!)!) / 10) / 100,
          2,
        ),
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(2000);
    const residential = new Set(['Residential', 'Mobile Home', 'Res Condo']);
    const perPid = new Map<string, Row[]>();
    for (const b of parse(fs.readFileSync(path.join(sourceDir, 'lyme_vgsi_buildings_2023-05-10.tsv')), {
      columns: (header: string[]) => header.map((h, i) => (header.indexOf(h) === i ? h : `${h} ${i}`)),
      delimiter: '\t',
      skip_empty_lines: true,
    }) as Row[])
      if (residential.has(b.Model!.trim())) perPid.set(b.PID!, [...(perPid.get(b.PID!) ?? []), b]);
    for (const [pid, rows] of perPid) {
      const r = stored.get(pid);
      if (!r) continue;
      expect(
        r.Buildings.map((b) => [b.BuildingType, b.YearBuilt, b.Area]),
        pid,
      ).toEqual(rows.map((b) => [b.Style, numberOrNull(b['Year Built']), numberOrNull(b['Living Area'])]));
    }
  });

  /** The assessment history file's lines of each PID, as ValueHistory entries, newest first. */
  const sourceHistory = () => {
    const perPid = new Map<string, PropertyRecord['ValueHistory']>();
    for (const h of readCsv('lyme_vgsi_assessment_history_2023-05-02.csv')) {
      if (!/^\d{4}$/.test(h['Ass. Year']!)) continue;
      perPid.set(h.PID!, [
        ...(perPid.get(h.PID!) ?? []),
        {
          Year: Number(h['Ass. Year']),
          LandValue: numberOrNull(h.Land),
          BuildingValue: numberOrNull(h.Improvements),
          TotalValue: numberOrNull(h.Total),
        },
      ]);
    }
    for (const lines of perPid.values()) lines.sort((a, b) => b.Year - a.Year);
    return perPid;
  };

  it('maps the assessment history into the Valuation History, as the source file has it', async () => {
    const history = sourceHistory();
    let lines = 0;
    for (const c of cama) {
      const expected = history.get(c.LocalCamaId!) ?? [];
      expect(stored.get(c.LocalCamaId!)!.ValueHistory, c.LocalCamaId).toEqual(expected);
      lines += expected.length;
    }
    expect(lines).toBeGreaterThan(3000);
    // SOURCE.md's example parcel, as the property page receives it (Improvements is the building value).
    expect((await property('100021')).ValueHistory).toEqual([
      { Year: 2022, LandValue: 230900, BuildingValue: 1128800, TotalValue: 1359700 },
      { Year: 2021, LandValue: 230900, BuildingValue: 1128800, TotalValue: 1359700 },
      { Year: 2020, LandValue: 280100, BuildingValue: 1046600, TotalValue: 1326700 },
    ]);
  });

  // Last: it replaces the roll the tests above read.
  it('re-published for the same year (a correction), adds nothing: its history stays what the town gave', async () => {
    const again = await importExample(ctx.db, clientId, 'lyme-nh');
    expect(again.errors).toEqual([]);
    const after = await storedRecords(ctx.db, clientId);
    const history = sourceHistory();
    for (const c of cama) {
      const r = after.get(c.LocalCamaId!)!;
      // 2022 is the roll's own tax year: the replaced roll's 2022 values are the current ones, not history.
      expect(
        r.Taxes.some((t) => t.TaxYear === 2022),
        c.LocalCamaId,
      ).toBe(true);
      expect(r.ValueHistory, c.LocalCamaId).toEqual(history.get(c.LocalCamaId!) ?? []);
    }
  });
});
