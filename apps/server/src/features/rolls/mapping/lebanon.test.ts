import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PropertyRecord } from '@opp/contracts';
import { setupTestApp } from '../../../../test/helpers.ts';
import { buildClient } from '../../../../test/factories.ts';
import {
  exampleFiles,
  haveExample,
  importFiles,
  realworldDir,
  storedRecords,
} from '../../../../test/real-exports.ts';
import type { ImportOutcome } from '../import.service.ts';
import { rollImportService } from '../roll-import.service.ts';

/*
 * Lebanon, NH (../shared/data/realworld/lebanon-nh): a Vision city's own parcel master export, read with
 * `--format vision` and no mapping, and Vision's state extract as Excel and pandas saved it, read
 * through docs/examples/lebanon-nhdra.json. Each is published through the real import and every stored
 * record compared with its source row; forms of the master export as a spreadsheet would save it
 * (a junk first line, lower-case names with spaces, scientific notation) publish the same records.
 */

type Row = Record<string, string>;
const ctx = setupTestApp({}, { onDisk: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-lebanon-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const masterFile = path.join(realworldDir, 'lebanon-nh', 'Parcel Master Export.csv');
const haveMaster = haveExample('lebanon-nhdra', 'Lebanon tests') && fs.existsSync(masterFile);
const examples = path.resolve(import.meta.dirname, '../../../../../../docs/examples');

const fold = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
/** Vision's map-block-lot-unit as the documented account rule writes it: parts trimmed, zeros dropped, "-". */
const mblu = (r: Row, names: string[]) =>
  names
    .map((n) => fold(r[n]).replace(/^0+(?=\d)/, ''))
    .filter(Boolean)
    .join('-');
const readCsv = (text: string | Buffer, fromLine = 1): Row[] =>
  parse(text, { columns: true, bom: true, skip_empty_lines: true, from_line: fromLine }) as Row[];

describe.skipIf(!haveMaster)('Lebanon, NH: the Vision master export with --format vision', () => {
  let rows: Row[];
  let outcome: ImportOutcome;
  let stored: Map<string, PropertyRecord>;
  let clientId: number;
  const MBLU = ['REM_MBLU_MAP', 'REM_MBLU_BLOCK', 'REM_MBLU_LOT', 'REM_MBLU_UNIT'];

  beforeAll(async () => {
    rows = readCsv(fs.readFileSync(masterFile));
    const client = await buildClient(ctx.db, { city: 'Lebanon', stateProvince: 'New Hampshire' });
    clientId = client.id;
    outcome = await importFiles(ctx.db, client.id, { format: 'vision' }, [masterFile]);
    stored = await storedRecords(ctx.db, client.id);
  }, 300_000);

  it('publishes all 5,660 parcels, each under its map-block-lot-unit', () => {
    expect(outcome.errors).toEqual([]);
    expect(outcome.ok).toBe(true);
    expect(rows.length).toBe(5660);
    expect(stored.size).toBe(5660);
  });

  it('stores each row’s owner, mailing address, location, use, land, building, total and acres as written', () => {
    for (const r of rows) {
      const account = mblu(r, MBLU);
      const s = stored.get(account)!;
      expect(s, account).toBeDefined();
      expect(s.MapLot).toBe(account);
      expect(s.LandValue).toBe(Number(r.PRC_TTL_ASSESS_LND));
      expect(s.TotalBuildingValue).toBe(Number(r.PRC_TTL_ASSESS_BLDG));
      // The total as Vision computed it (outbuildings and extra features included), not land + building.
      expect(s.Taxable).toBe(Number(r.PRC_TTL_ASSESS));
      expect(s.TotalAcres).toBe(Number(r.PRC_TTL_LND_AREA_ACRES));
      expect(s.LandCode).toBe(r.REM_USE_CODE);
      expect(s.Owners[0]).toMatchObject({
        OwnerName: fold(r.REM_OWN_NAME),
        ...(fold(r.MAD_MAIL_ADDR1) ? { Address1: fold(r.MAD_MAIL_ADDR1) } : {}),
        ...(fold(r.MAD_MAIL_ZIP) ? { ZipCode: fold(r.MAD_MAIL_ZIP) } : {}),
      });
      // Number, street and unit together are the location as written (a `#` or the word Unit aside).
      const given = fold(fold(r.REM_PRCL_LOCN).replace(/#|\bUnit\b/gi, ' ')).replace(/ ?\+ ?/g, '+');
      // A house number of zeros is none (the documented rule): the rest is the same.
      const zero = /^(0+) /.exec(given)?.[1] ?? '';
      expect([s.StreetNumber || zero, s.StreetName, s.Apartment].filter(Boolean).join(' '), account).toBe(
        given,
      );
    }
  });

  it('reads the city’s hard locations as a clerk reads them', () => {
    const byLocation = new Map(rows.map((r) => [fold(r.REM_PRCL_LOCN), stored.get(mblu(r, MBLU))!]));
    expect(byLocation.get('5 MEADOW BROOK APTS')).toMatchObject({
      StreetNumber: '5',
      StreetName: 'MEADOW BROOK APTS',
      Apartment: '',
    });
    expect(byLocation.get('20 MORGAN DR Unit 21')).toMatchObject({
      StreetNumber: '20',
      StreetName: 'MORGAN DR',
      Apartment: '21',
    });
    expect(byLocation.get('023B PEABODY ST')).toMatchObject({
      StreetNumber: '023B',
      StreetName: 'PEABODY ST',
    });
    expect(byLocation.get('54 + 56 ETNA RD')).toMatchObject({ StreetNumber: '54+56', StreetName: 'ETNA RD' });
    expect(byLocation.get('0 HILLTOP DR')).toMatchObject({ StreetNumber: '', StreetName: 'HILLTOP DR' });
  });

  it('a dry run of the same export changes nothing; of the state extract, it lists what would change', async () => {
    const town = { db: ctx.db, clientId };
    const same = await rollImportService.check(
      await rollImportService.open({ format: 'vision' }, [
        { path: masterFile, name: path.basename(masterFile) },
      ]),
      { town },
    );
    expect(same.changes).toMatchObject({
      published: 5660,
      added: 0,
      removed: 0,
      changed: 0,
      unchanged: 5660,
    });
    const extract = exampleFiles('lebanon-nhdra')![0]!;
    const dra = await rollImportService.check(
      await rollImportService.open({ mappingFile: path.join(examples, 'lebanon-nhdra.json') }, [
        { path: extract, name: 'nhdra.csv' },
      ]),
      { town },
    );
    // The 38 condominium master records are not in the state extract: publishing it would remove them.
    expect(dra.changes).toMatchObject({ published: 5660, added: 0, removed: 38 });
    expect(dra.changes!.changed + dra.changes!.unchanged).toBe(5622);
    const masters = new Set(rows.filter((r) => r.REM_USE_CODE === '9550').map((r) => mblu(r, MBLU)));
    for (const r of dra.changes!.firstRemoved) expect(masters.has(r.account), r.account).toBe(true);
    expect(dra.changes!.firstRemoved[0]).toEqual({
      account: expect.any(String),
      mapLot: dra.changes!.firstRemoved[0]!.account,
    });
    const published = new Map(dra.changes!.publishedFill.map((f) => [f.field, f]));
    expect(published.get('Taxable')).toEqual({ field: 'Taxable', filled: 5660, of: 5660 });
    expect(dra.fill.find((f) => f.field === 'Sales')).toEqual({ field: 'Sales', filled: 5513, of: 5622 });
  }, 300_000);

  it('refuses the export when its owner column is not found, and changes nothing', async () => {
    const text = fs.readFileSync(masterFile, 'utf8').replace('REM_OWN_NAME', 'OWNER_OF_RECORD');
    const file = path.join(tmp, 'no owners.csv');
    fs.writeFileSync(file, text);
    const refused = await importFiles(ctx.db, clientId, { format: 'vision' }, [file]);
    expect(refused.ok).toBe(false);
    expect(refused.errors).toEqual([
      expect.stringMatching(/^every record's owner name \(Owners\.OwnerName\) came out empty/),
    ]);
    const after = await storedRecords(ctx.db, clientId);
    expect(after.size).toBe(stored.size);
    for (const [account, record] of stored) expect(after.get(account), account).toEqual(record);
  }, 300_000);

  it('publishes the same records from the file as a spreadsheet saves it: junk first line, lower-case names, scientific notation', async () => {
    const text = fs.readFileSync(masterFile, 'utf8');
    const [header, ...lines] = text.split(/\r?\n/);
    const names = header!.split(',');
    const acres = names.indexOf('PRC_TTL_LND_AREA_ACRES');
    // pandas writes small floats in scientific notation; here every acreage is written so.
    const saved = [
      names.map((_, i) => `Unnamed: ${i}`).join(','),
      names.map((n) => n.toLowerCase().replace(/_/g, ' ')).join(','),
      ...lines.map((line) => {
        if (!line.trim()) return line;
        const cells = parse(line, { relax_quotes: true })[0] as string[];
        const n = Number(cells[acres]);
        cells[acres] = n === 0 ? '0.0' : n.toExponential();
        return cells.map((c) => (/[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
      }),
    ].join('\n');
    const file = path.join(tmp, 'Parcel Master Export (saved).csv');
    fs.writeFileSync(file, saved);
    const client = await buildClient(ctx.db, { city: 'Lebanon saved', stateProvince: 'New Hampshire' });
    const again = await importFiles(ctx.db, client.id, { format: 'vision' }, [file]);
    expect(again.errors).toEqual([]);
    const savedStored = await storedRecords(ctx.db, client.id);
    expect(savedStored.size).toBe(stored.size);
    for (const [account, record] of stored) expect(savedStored.get(account), account).toEqual(record);
  }, 300_000);
});

describe.skipIf(!haveMaster)(
  'Lebanon, NH: Vision’s state extract (nhdra.csv) through its example mapping',
  () => {
    let rows: Row[];
    let outcome: ImportOutcome;
    let stored: Map<string, PropertyRecord>;
    const MBLU = ['rem mblu map', 'rem mblu block', 'rem mblu lot', 'rem mblu unit'];

    beforeAll(async () => {
      // Line 1 is pandas' "Unnamed: 0,…"; the header is line 2.
      rows = readCsv(fs.readFileSync(exampleFiles('lebanon-nhdra')![0]!), 2);
      const client = await buildClient(ctx.db, { city: 'Lebanon DRA', stateProvince: 'New Hampshire' });
      outcome = await importFiles(
        ctx.db,
        client.id,
        { mappingFile: path.join(examples, 'lebanon-nhdra.json') },
        exampleFiles('lebanon-nhdra')!,
      );
      stored = await storedRecords(ctx.db, client.id);
    }, 300_000);

    const placeholder = (d: string | undefined) => !d || /^190[01]-01-01/.test(d);
    const zeros = (part: string) => (/^\d+$/.test(part) ? part.replace(/^0+(?=\d)/, '') : part);
    const bookPage = (v: string | undefined) => {
      if (!v || v === '0/0') return {};
      // Book before the first "/", page after it (`2014-51261/A/0`: page `A/0`).
      const at = v.indexOf('/');
      return { Book: zeros(v.slice(0, at)), Page: zeros(v.slice(at + 1)) };
    };

    it('publishes all 5,622 parcels', () => {
      expect(outcome.errors).toEqual([]);
      expect(outcome.ok).toBe(true);
      expect(rows.length).toBe(5622);
      expect(stored.size).toBe(5622);
    });

    it('stores values, owner and co-owner, the last sale and three prior sales, and the building as written', () => {
      for (const r of rows) {
        const account = mblu(r, MBLU);
        const s = stored.get(account)!;
        expect(s, account).toBeDefined();
        expect(s.Reference1).toEqual({ Description: 'Vision PID', UserDefinedValue: r['rem pid'] });
        expect(s.LandValue).toBe(Number(r['prc ttl assess lnd']));
        expect(s.TotalBuildingValue).toBe(Number(r['prc ttl assess bldg']));
        expect(s.Taxable).toBe(Number(r['prc ttl assess']));
        expect(s.TotalAcres).toBe(Number(r['prc ttl lnd area acres']));
        expect(s.Owners.map((o) => o.OwnerName)).toEqual(
          [fold(r['own name']), fold(r['co own name'])].filter(Boolean),
        );
        const sales = [
          ['saleprice', 'saledate', 'book pg'],
          ...[1, 2, 3].map((i) => [
            `ID${i} Prior Sale Price`,
            `ID${i} Prior Sale Date`,
            `ID${i} Prior Book Page`,
          ]),
        ]
          .map(([price, date, book]) => ({ price: r[price!], date: r[date!], book: r[book!] }))
          .filter((x) => !placeholder(x.date) || (x.price && x.price !== '0') || (x.book && x.book !== '0/0'))
          .map((x) => ({
            ...(placeholder(x.date) ? {} : { SaleDate: x.date!.slice(0, 10) }),
            ...(x.price ? { SalePrice: Number(x.price) } : {}),
            ...bookPage(x.book),
          }));
        expect(
          s.Sales.map((x) => ({ ...x, SaleType: undefined })).map(
            (x) => JSON.parse(JSON.stringify(x)) as object,
          ),
        ).toEqual(sales.map((x) => expect.objectContaining(x)));
        if (r['vns style desc']) {
          expect(s.Buildings[0]).toMatchObject({
            BuildingType: fold(r['vns style desc']),
            ...(Number(r['vns ayb']) ? { YearBuilt: Number(r['vns ayb']) } : {}),
          });
        }
      }
    });

    it('reads Vision’s story codes as Vision defines them, never blanking one', () => {
      const byPid = new Map([...stored.values()].map((s) => [s.Reference1?.UserDefinedValue, s]));
      const code = { '1T': 1.75, '1A': 1.25, '1H': 1.5, '2A': 2.25, '2H': 2.5, '2T': 2.75 } as Record<
        string,
        number
      >;
      let coded = 0;
      for (const r of rows) {
        const stories = r['vns stories']!;
        if (!stories) continue;
        const b = byPid.get(r['rem pid'])!.Buildings[0]!;
        expect(b.BuildingStories, r['rem pid']).toBe(code[stories] ?? Number(stories));
        if (code[stories]) coded++;
      }
      expect(coded).toBe(1310);
    });
  },
);
