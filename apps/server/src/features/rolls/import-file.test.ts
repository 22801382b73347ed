import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFrom, queryRows } from '../../db/database.ts';
import { setupTestApp, testEngine } from '../../../test/helpers.ts';
import { abandonedRoll, buildClient } from '../../../test/factories.ts';
import { importRoll } from './import.service.ts';
import { recordSourceFor } from './record-sources.ts';
import { rollsRepository } from './rolls.repository.ts';
import { rollImportService } from './roll-import.service.ts';
import type { RunNotes } from './import-notes.ts';
import { PropertyRecord } from '@opp/contracts';
import { toPropertyRow } from '../properties/property-row.ts';
import { unpackRecord } from '../properties/record-codec.ts';
import { copyHistoryRows } from './value-history.ts';
import { ROLL_COPY_COLUMNS, copyRecordRow, copyRow } from './roll-rows.ts';

/*
 * Roll files through the real pipeline (file → source → validation → roll swap) and back out through
 * the public API, on whichever engine the run uses.
 */

const ctx = setupTestApp();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-import-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

async function importFile(clientId: number, filePath: string) {
  return importRoll(
    ctx.db,
    { clientId, userId: null, actor: 'test', fileName: path.basename(filePath) },
    recordSourceFor(filePath),
  );
}

/** Everything a reader could see of the client: its row and every stored property row, in full. */
async function snapshot(clientId: number) {
  const client = await queryRows(
    ctx.db,
    sql`select active_roll_id, parcel_count, last_updated from clients where id = ${clientId}`,
  );
  const rows = await queryRows(
    ctx.db,
    sql`select p.roll_id, p.account, r.record, p.summary, p.search_doc::text as search_doc
          from properties p left join property_records r on r.roll_id = p.roll_id and r.account = p.account
         where p.client_id = ${clientId} order by p.roll_id, p.account`,
  );
  return { client, rows };
}

async function fullProperty(city: string, account: string) {
  const res = await ctx.app.inject(
    `/api/fullproperty/${account}?city=${encodeURIComponent(city)}&state=Maine`,
  );
  return { status: res.statusCode, body: res.json() };
}

/** Whether either of the roll's own tables (migrations/0006, 0009) still exists, attached or not. */
async function rollTableExists(rollId: number) {
  const [row] = await queryRows<{ t: string | null; r: string | null; h: string | null }>(
    ctx.db,
    sql`select to_regclass(${`properties_r${rollId}`})::text as t,
               to_regclass(${`property_records_r${rollId}`})::text as r,
               to_regclass(${`value_history_r${rollId}`})::text as h`,
  );
  return row!.t !== null || row!.r !== null || row!.h !== null;
}

const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('importing roll files', () => {
  it('publishes a CSV roll that reads back through the public API as full records', async () => {
    const client = await buildClient(ctx.db);
    const p = file(
      'roll.csv',
      [
        'Account,MapLot,StreetNumber,Apartment,StreetName,LandValue,TotalBuildingValue,TotalAcres,Owner1Name,Owner1Address1,Owner1City,Owner1State,Owner1ZipCode,Owner2Name,Sale1Date,Sale1Price,Sale1Book,Sale1Page,Sale2Date,Sale2Price,Land1Code,Land1Description,Land1UnitType,Land1Amount,Building1Type,Building1Bedrooms,Building1FullBaths,Building1YearBuilt,Tax1Year,Tax1Rate,Tax1OriginalTaxAmount,Tax1OutstandingTaxBalance,PropertyCode,PropertyCodeDescription',
        '101,R03-012,12,,"MAIN ST",45000,"180,500",2.5,"LIBBY, SARAH J",12 MAIN ST,HARRISON,ME,04040,"LIBBY, PAUL",2019-05-01,245000,35123,118,2001-02-03,98000,1,House Lot,Site,45000,Cape,3,2,1978,2025,0.01485,3348.68,0,101,Property Code',
        '102,U01-004-002,40,2B,POND RD,20000,90000,0,"ROE LLC",,,,,,,,,,,,,,,,,,,,,,,,,',
      ].join('\n'),
    );
    const outcome = await importFile(client.id, p);
    expect(outcome.errors).toEqual([]);
    expect(outcome.ok).toBe(true);
    expect(outcome.total).toBe(2);

    const first = await fullProperty(client.city, '101');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      Account: '101',
      MapLot: 'R03-012',
      StreetNumber: '12',
      StreetName: 'MAIN ST',
      TotalBuildingValue: 180500,
      TotalAcres: 2.5,
      Owners: [
        { OwnerName: 'LIBBY, SARAH J', Address1: '12 MAIN ST', City: 'HARRISON', ZipCode: '04040' },
        { OwnerName: 'LIBBY, PAUL', Address1: '' },
      ],
      Sales: [
        { SaleDate: '2019-05-01', SalePrice: 245000, Book: '35123', Page: '118' },
        { SaleDate: '2001-02-03', SalePrice: 98000 },
      ],
      Land: [{ LandCode: '1', LandDescription: 'House Lot', UnitType: 'Site', Amount: 45000 }],
      Buildings: [{ BuildingType: 'Cape', Bedrooms: 3, FullBaths: 2, YearBuilt: 1978 }],
      Taxes: [{ TaxYear: 2025, Rate: 0.01485, OriginalTaxAmount: 3348.68, OutstandingTaxBalance: 0 }],
      PropertyCode: { Description: 'Property Code', UserDefinedValue: '101' },
      Exemptions: [],
      CommercialBuildings: [],
    });
    const second = await fullProperty(client.city, '102');
    expect(second.body).toMatchObject({
      Apartment: '2B',
      Owners: [{ OwnerName: 'ROE LLC' }],
      Sales: [],
      TotalAcres: 0,
    });
  });

  it('publishes a JSON Lines roll, blank lines and all', async () => {
    const client = await buildClient(ctx.db);
    const p = file(
      'roll.jsonl',
      `${jsonl([{ Account: 'A-1', Owners: [{ OwnerName: 'X' }] }])}\n\n${jsonl([{ Account: 'A-2', StreetName: 'ELM ST' }])}`,
    );
    const outcome = await importFile(client.id, p);
    expect(outcome.ok).toBe(true);
    expect((await fullProperty(client.city, 'A-2')).body).toMatchObject({
      Account: 'A-2',
      StreetName: 'ELM ST',
      Owners: [],
    });
  });

  it('rejects a bad JSON Lines file by line and field, leaving the published roll exactly as it was', async () => {
    const client = await buildClient(ctx.db);
    expect(
      (await importFile(client.id, file('v1.jsonl', jsonl([{ Account: '1' }, { Account: '2' }])))).ok,
    ).toBe(true);
    const before = await snapshot(client.id);

    const bad = file(
      'v2.jsonl',
      [
        JSON.stringify({ Account: '1', StreetName: 'NEW ST' }),
        JSON.stringify({ Account: '2', Sales: [{ SaleDate: '2020-01-01', SalePrice: 'N/A' }] }),
        '{"Account": "3", oops}',
        JSON.stringify({ Account: '4', Owners: [{ City: 'NO NAME' }] }),
        JSON.stringify({ Account: '1' }),
      ].join('\n'),
    );
    const outcome = await importFile(client.id, bad);
    expect(outcome.ok).toBe(false);
    expect(outcome.errors).toEqual([
      'line 2: Sales[0].SalePrice: expected a number, got "N/A"',
      expect.stringMatching(/^line 3: not valid JSON \(/),
      'line 4: Owners[0].OwnerName: expected text, got nothing',
      'line 5: Account: 1 appears again (first on line 1)',
    ]);
    expect(await snapshot(client.id)).toEqual(before);
    expect((await fullProperty(client.city, '1')).body.StreetName).toBe('');
    expect(outcome.run).toMatchObject({ status: 'failed', fileName: 'v2.jsonl', errorCount: 4 });
  });

  it('names CSV columns and file lines in errors, and changes nothing', async () => {
    const client = await buildClient(ctx.db);
    expect((await importFile(client.id, file('ok.csv', 'Account,StreetName\n1,ELM ST\n'))).ok).toBe(true);
    const before = await snapshot(client.id);
    const lines = ['Account,SaleDate,SalePrice,Sale2Price,Building1Bedrooms,StreetName'];
    for (let i = 1; i <= 9; i++) lines.push(`${i},2020-01-0${i},1000,,,"A ST"`);
    lines.push('10,2020-01-10,N/A,,,"MULTI\nLINE ST"');
    lines.push('11,2020-02-30,5,12abc,two,B ST');
    const outcome = await importFile(client.id, file('bad.csv', lines.join('\n')));
    expect(outcome.errors).toEqual([
      'line 11: SalePrice: expected a number, got "N/A"',
      'line 13: SaleDate: expected a real date (YYYY-MM-DD)',
      'line 13: Sale2Price: expected a number, got "12abc"',
      'line 13: Building1Bedrooms: expected a number, got "two"',
    ]);
    expect(await snapshot(client.id)).toEqual(before);
  });

  it('rejects a CSV file whose header it cannot map before reading any row', async () => {
    const client = await buildClient(ctx.db);
    const outcome = await importFile(client.id, file('header.csv', 'Account,Ownr1Name\n1,X\n'));
    expect(outcome.ok).toBe(false);
    expect(outcome.errors).toEqual(['line 1: unknown column "Ownr1Name"']);
  });

  it('fails cleanly when the file cannot be read to the end, leaving no rows behind', async () => {
    const client = await buildClient(ctx.db);
    expect((await importFile(client.id, file('v1b.jsonl', jsonl([{ Account: 'keep' }])))).ok).toBe(true);
    const before = await snapshot(client.id);
    const breaking = async function* () {
      for (let i = 1; i <= 3500; i++) {
        // Three batches in, with a batch still being written, the disk (or the upload) gives out.
        if (i === 3001) throw new Error('EIO: i/o error, read');
        yield { line: i, value: { Account: String(i) } };
      }
    };
    await expect(
      importRoll(
        ctx.db,
        { clientId: client.id, userId: null, actor: 'test', fileName: 'moving.jsonl' },
        breaking,
      ),
    ).rejects.toThrow(/EIO/);
    expect(await snapshot(client.id)).toEqual(before);
    const [run] = await queryRows<{ id: number; status: string; message: string }>(
      ctx.db,
      sql`select id, status, message from import_runs where client_id = ${client.id} order by id desc limit 1`,
    );
    expect(run).toMatchObject({ status: 'failed', message: expect.stringMatching(/^Import failed: EIO/) });
    expect(await rollTableExists(run!.id)).toBe(false);
  });

  it('stops writing at the first bad record, still lists every problem, and leaves nothing behind', async () => {
    const client = await buildClient(ctx.db);
    expect((await importFile(client.id, file('v1c.jsonl', jsonl([{ Account: 'keep' }])))).ok).toBe(true);
    const before = await snapshot(client.id);
    // Thousands of good records are written before the first problem shows up.
    const records = Array.from({ length: 4500 }, (_, i) => ({ Account: String(i + 1) }) as object);
    records[3200] = { Account: '3201', LandValue: 'N/A' };
    records[4100] = { Account: '17' };
    const outcome = await importFile(client.id, file('late-error.jsonl', jsonl(records)));
    expect(outcome.ok).toBe(false);
    expect(outcome.total).toBe(4500);
    expect(outcome.errors).toEqual([
      'line 3201: LandValue: expected a number, got "N/A"',
      'line 4101: Account: 17 appears again (first on line 17)',
    ]);
    expect(await snapshot(client.id)).toEqual(before);
    expect(await rollTableExists(outcome.run.id)).toBe(false);
    expect((await fullProperty(client.city, 'keep')).status).toBe(200);
  });

  it('drops the rows a crashed import left behind once its run is known to be dead', async () => {
    const client = await buildClient(ctx.db);
    expect((await importFile(client.id, file('v1d.jsonl', jsonl([{ Account: 'keep' }])))).ok).toBe(true);
    // A run that died mid-import: its table holds rows, its heartbeat stopped an hour ago.
    const dead = await rollsRepository.createRun(ctx.db, {
      clientId: client.id,
      userId: null,
      actor: 'test',
      fileName: 'crashed.jsonl',
    });
    await rollsRepository.createRollTable(ctx.db, dead.id);
    const halfWritten = toPropertyRow(PropertyRecord.parse({ Account: 'half-written' }));
    const target = { rollId: dead.id, clientId: client.id };
    await rollsRepository.copyRows(ctx.db, dead.id, {
      rows: `${copyRow(target, halfWritten)}\n`,
      records: `${copyRecordRow(target, halfWritten)}\n`,
      history: copyHistoryRows(halfWritten.record),
    });
    await ctx.db.execute(
      sql`update import_runs set status = 'importing', heartbeat_at = now() - interval '1 hour' where id = ${dead.id}`,
    );
    expect(await rollsRepository.sweepAbandoned(ctx.db, 120)).toBe(1);
    expect(await rollTableExists(dead.id)).toBe(false);
    const [run] = await queryRows<{ status: string }>(
      ctx.db,
      sql`select status from import_runs where id = ${dead.id}`,
    );
    expect(run!.status).toBe('failed');
    expect((await fullProperty(client.city, 'keep')).status).toBe(200);

    // A failed run whose clean-up never ran (the process died right after marking it) is dropped by
    // the next import, of any client.
    const orphan = await abandonedRoll(ctx.db, client.id);
    const other = await buildClient(ctx.db);
    expect((await importFile(other.id, file('other.jsonl', jsonl([{ Account: '1' }])))).ok).toBe(true);
    expect(await rollTableExists(orphan.id)).toBe(false);
  });

  it('drops the replaced roll whole: its rows are gone, the new roll is the only one left', async () => {
    const client = await buildClient(ctx.db);
    const first = await importFile(client.id, file('r1.jsonl', jsonl([{ Account: 'a' }, { Account: 'b' }])));
    const second = await importFile(client.id, file('r2.jsonl', jsonl([{ Account: 'c' }])));
    expect(second.ok).toBe(true);
    expect(await rollTableExists(first.run.id)).toBe(false);
    expect((await snapshot(client.id)).rows).toEqual([
      expect.objectContaining({ roll_id: second.run.id, account: 'c' }),
    ]);
    expect((await fullProperty(client.city, 'a')).status).toBe(404);
  });

  it('treats an empty file as an error, not as an empty roll', async () => {
    const client = await buildClient(ctx.db);
    expect((await importFile(client.id, file('a.jsonl', jsonl([{ Account: '1' }])))).ok).toBe(true);
    const outcome = await importFile(client.id, file('empty.jsonl', '\n\n'));
    expect(outcome.errors).toEqual(['the file holds no records']);
    expect((await fullProperty(client.city, '1')).status).toBe(200);
  });
});

/** A file in the portal's own format published as the console and `portal import` publish it. */
async function publishOwn(clientId: number, filePath: string) {
  const input = await rollImportService.open({}, [{ path: filePath, name: path.basename(filePath) }]);
  const dry = await rollImportService.check(input, { town: { db: ctx.db, clientId } });
  const run = await rollImportService.createRun(ctx.db, { clientId, userId: null, actor: 'test' }, input, {
    actor: null,
    ip: null,
  });
  const outcome = await rollImportService.publish(ctx.db, run, input.source(), () => {}, {
    engine: testEngine,
    checks: input,
  });
  return { dry, outcome };
}

describe('the portal’s own format: a field empty on every record is refused, as in a town’s export', () => {
  const refusal = (field: string) =>
    expect.stringMatching(
      new RegExp(
        `^every record's .*\\(${field.replace('.', '\\.')}\\) came out empty: .*leave the field out of the file`,
      ),
    );

  it('a CSV column empty on every record refuses the file, and nothing changes; without the column it publishes', async () => {
    const client = await buildClient(ctx.db);
    const good = await publishOwn(
      client.id,
      file(
        'own-good.csv',
        'Account,StreetName,LandValue,Owner1Name\n1,ELM ST,1000,PINE LLC\n2,ELM ST,2000,OAK LLC\n',
      ),
    );
    expect(good.outcome.ok).toBe(true);
    const before = await snapshot(client.id);

    const emptied = file(
      'own-empty.csv',
      'Account,StreetName,LandValue,Owner1Name\n1,ELM ST,,\n2,ELM ST,, \n',
    );
    const { dry, outcome } = await publishOwn(client.id, emptied);
    expect(dry.problems).toEqual([refusal('Owners.OwnerName'), refusal('LandValue')]);
    expect(outcome).toMatchObject({ ok: false, errors: dry.problems });
    expect(await snapshot(client.id)).toEqual(before);
    expect((await fullProperty(client.city, '1')).body).toMatchObject({ LandValue: 1000 });

    // The escape: a town with no land values or owners leaves the columns out. A town that does not
    // publish owners is not asked for names.
    const without = file('own-without.csv', 'Account,StreetName\n1,ELM ST\n');
    expect((await publishOwn(client.id, without)).outcome.errors).toEqual([]);
    const private_ = await buildClient(ctx.db, { publishOwnerNames: false });
    const noNames = file('own-no-names.csv', 'Account,StreetName,Owner1Name\n1,ELM ST,\n');
    expect((await publishOwn(private_.id, noNames)).outcome.errors).toEqual([]);
  });

  it('a JSON Lines field empty on every record refuses the file; left out, it publishes', async () => {
    const client = await buildClient(ctx.db);
    expect(
      (await publishOwn(client.id, file('own-a.jsonl', jsonl([{ Account: 'a', TotalAcres: 1 }])))).outcome.ok,
    ).toBe(true);
    const before = await snapshot(client.id);
    const nulls = file(
      'own-nulls.jsonl',
      jsonl([
        { Account: 'a', TotalAcres: null },
        { Account: 'b', TotalAcres: null },
      ]),
    );
    const { dry, outcome } = await publishOwn(client.id, nulls);
    expect(dry.problems).toEqual([refusal('TotalAcres')]);
    expect(outcome).toMatchObject({ ok: false, errors: dry.problems });
    expect(await snapshot(client.id)).toEqual(before);
    expect((await publishOwn(client.id, file('own-b.jsonl', jsonl([{ Account: 'b' }])))).outcome.ok).toBe(
      true,
    );
  });
});

describe('a large JSON Lines file, parsed on worker threads', () => {
  // With the engine, as the server imports.
  const importWith = (clientId: number, filePath: string, threads: number) =>
    importRoll(
      ctx.db,
      { clientId, userId: null, actor: 'test', fileName: path.basename(filePath) },
      recordSourceFor(filePath),
      undefined,
      { threads, engine: testEngine },
    );

  const storedRows = (clientId: number) =>
    queryRows<{ account: string; record: string; summary: unknown; search_doc: string }>(
      ctx.db,
      sql`select p.account, r.record, p.summary, p.search_doc::text as search_doc
            from properties p join clients c on c.active_roll_id = p.roll_id
            join property_records r on r.roll_id = p.roll_id and r.account = p.account
           where c.id = ${clientId} order by p.account`,
    );

  // A full record (every field, in order) written with a tab and spaces between its tokens, and text
  // that COPY and JSON both escape.
  const canonical = PropertyRecord.parse({
    Account: 'C-1',
    StreetName: 'TAB\tST',
    Owners: [{ OwnerName: `O'BRIEN "Q" \\ R` }],
  });
  const spaced = JSON.stringify(canonical).replace('{', '{\t ').replaceAll('":', '": ');
  // A sparse record: served as the contract's full form, not as typed.
  const sparse = { StreetName: 'ELM ST', Account: 'S-1' };

  /**
   * About 19 MB: a BOM, CRLF line ends, blank lines, and more 1 MB blocks than the threads hold at once,
   * so later reads go into the buffers of blocks already parsed. Each line ends in spaces (JSON allows
   * them), so a block holds fewer rows than a write waits for and each write takes several blocks' COPY
   * text, in pieces. One record in the middle of a block has a date-time, which only zod reads (as its
   * date): the thread that meets it loads zod then, and prepares that block again.
   */
  function largeFile(
    name: string,
    extra: string[] = [],
    more: (i: number) => Record<string, unknown> = () => ({}),
  ) {
    const lines = [spaced, JSON.stringify(sparse), ''];
    for (let i = 1; i <= 12_000; i++) {
      lines.push(
        `${JSON.stringify({
          Account: `P${i}`,
          GISLink: `https://gis.example.org/${'x'.repeat(500)}`,
          Owners: [{ OwnerName: `OWNER ${i}` }],
          ...(i === 6000 ? { DateUpdated: '2024-05-01T10:00:00Z' } : {}),
          ...more(i),
        })}${' '.repeat(1000)}`,
      );
    }
    return file(name, `\uFEFF${[...lines, ...extra].join('\r\n')}\r\n`);
  }

  it('stores exactly what the importing thread stores, and serves the contract form of each record', async () => {
    const here = await buildClient(ctx.db);
    const pooled = await buildClient(ctx.db);
    const p = largeFile('large.jsonl');
    expect(fs.statSync(p).size).toBeGreaterThan(6 * 1024 * 1024);
    expect((await importWith(here.id, p, 0)).ok).toBe(true);
    const outcome = await importWith(pooled.id, p, 2);
    expect(outcome).toMatchObject({ ok: true, total: 12_002 });

    const [a, b] = [await storedRows(here.id), await storedRows(pooled.id)];
    expect(b).toHaveLength(12_002);
    expect(b).toEqual(a);
    const byAccount = new Map(b.map((r) => [r.account, unpackRecord(r.record)]));
    expect(byAccount.get('C-1')).toBe(JSON.stringify(canonical));
    expect(byAccount.get('S-1')).toBe(JSON.stringify(PropertyRecord.parse(sparse)));
    expect(JSON.parse(byAccount.get('P6000')!)).toMatchObject({
      Account: 'P6000',
      DateUpdated: '2024-05-01',
    });
    expect((await fullProperty(pooled.city, 'C-1')).body).toMatchObject(canonical);
  }, 120_000);

  it('reports the same problems, on the same lines, as the importing thread', async () => {
    const client = await buildClient(ctx.db);
    const p = largeFile('large-bad.jsonl', [
      JSON.stringify({ Account: 'P17' }),
      '{"Account": "X-1", oops}',
      JSON.stringify({ Account: 'X-2', LandValue: 'N/A' }),
      '[1, 2]',
    ]);
    const here = await importWith(client.id, p, 0);
    const pooled = await importWith(client.id, p, 2);
    expect(pooled.errors).toEqual(here.errors);
    expect(pooled.errors).toEqual([
      'line 12004: Account: P17 appears again (first on line 20)',
      expect.stringMatching(/^line 12005: not valid JSON \(/),
      'line 12006: LandValue: expected a number, got "N/A"',
      'line 12007: expected a JSON object (one property record), got a list',
    ]);
    expect(pooled).toMatchObject({ ok: false, total: 12_006 });
    expect(await rollTableExists(pooled.run.id)).toBe(false);
  }, 120_000);

  it('refuses on the threads, as its dry run does, a file whose values are all empty', async () => {
    const client = await buildClient(ctx.db);
    // The first record has every field of the record, empty; no other has a value, an area or a street.
    const p = largeFile('large-empty-values.jsonl');
    expect(fs.statSync(p).size).toBeGreaterThan(8 * 1024 * 1024);
    const { dry, outcome } = await publishOwn(client.id, p);
    expect(dry.problems.map((m) => m.slice(0, m.indexOf(':')))).toEqual([
      "every record's land value (LandValue) came out empty",
      "every record's building value (TotalBuildingValue) came out empty",
      "every record's total value (Taxable) came out empty",
      "every record's area (TotalAcres) came out empty",
    ]);
    expect(outcome).toMatchObject({ ok: false, errors: dry.problems });
    expect(await rollTableExists(outcome.run.id)).toBe(false);
  }, 120_000);

  it('published as the console and the command publish it, reports the same warnings as its dry run, and the run keeps them', async () => {
    const client = await buildClient(ctx.db);
    // Doubtful sales spread over the file's blocks: a year 0987 every 2,500 records, a price with no
    // date every 4,000.
    // One record has values (the first, full record has every field, empty: a file whose values are all
    // empty is refused).
    const values = { LandValue: 1000, TotalBuildingValue: 0, Taxable: 1000, TotalAcres: 1 };
    const p = largeFile('large-warnings.jsonl', [], (i) => ({
      ...(i === 1 ? values : {}),
      ...(i % 2500 === 0
        ? { Sales: [{ SaleDate: '0987-06-01', SalePrice: 1000 }] }
        : i % 4000 === 0
          ? { Sales: [{ SalePrice: 5000 }] }
          : {}),
    }));
    // Over the size from which an import parses on threads (import.service.ts POOL_MIN_BYTES): no option.
    expect(fs.statSync(p).size).toBeGreaterThan(8 * 1024 * 1024);
    const input = await rollImportService.open({}, [{ path: p, name: 'large-warnings.jsonl' }]);
    const dry = await rollImportService.check(input);
    expect(dry.warningCount).toBe(4 + 3);
    expect(dry.warningFields).toEqual([
      { field: 'Sales.SaleDate', count: 4 },
      { field: 'Sales.SalePrice', count: 3 },
    ]);
    const run = await rollImportService.createRun(
      ctx.db,
      { clientId: client.id, userId: null, actor: 'test' },
      input,
      { actor: null, ip: null },
    );
    const outcome = await rollImportService.publish(ctx.db, run, input.source(), () => {}, {
      engine: testEngine,
      checks: input,
    });
    expect(outcome).toMatchObject({ ok: true, total: 12_002 });
    const notes = (n: RunNotes) => ({
      warnings: n.warnings,
      warningCount: n.warningCount,
      warningFields: n.warningFields,
      adjusted: n.adjusted,
    });
    expect(notes(outcome)).toEqual(notes(dry));
    // In file order, as the dry run lists them.
    expect(outcome.warnings[0]).toBe(
      'line 2503: Sales[0].SaleDate: the year 0987 is unlikely; published as given',
    );
    expect((await rollsRepository.findRun(ctx.db, run.id))!.notes).toEqual(notes(dry));
  }, 120_000);
});

describe('rolls written before migration 0006 (the legacy partition)', () => {
  it('drops an abandoned legacy roll at the next import and keeps a published one', async () => {
    const published = await buildClient(ctx.db);
    const run = async (status: 'failed' | 'succeeded') => {
      const r = await rollsRepository.createRun(ctx.db, {
        clientId: published.id,
        userId: null,
        actor: 'test',
        fileName: 'old.csv',
      });
      await ctx.db.execute(sql`update import_runs set status = ${status} where id = ${r.id}`);
      return r.id;
    };
    const abandoned = await run('failed');
    const live = await run('succeeded');
    await ctx.db.execute(sql`update clients set active_roll_id = ${live} where id = ${published.id}`);
    // What 0006 leaves where rolls existed: the old table, bounded by the runs it holds, as the default.
    await ctx.db.execute(
      sql.raw(`create table properties_legacy (like properties including defaults including storage,
                 constraint properties_legacy_rolls check (roll_id <= ${live}))`),
    );
    const row = (rollId: number, account: string) =>
      copyRow({ rollId, clientId: published.id }, toPropertyRow(PropertyRecord.parse({ Account: account })));
    await copyFrom(
      ctx.db,
      `properties_legacy (${ROLL_COPY_COLUMNS})`,
      `${row(abandoned, 'gone')}\n${row(live, 'kept')}\n`,
    );
    await ctx.db.execute(sql`alter table properties attach partition properties_legacy default`);
    try {
      const other = await buildClient(ctx.db);
      expect((await importFile(other.id, file('after-legacy.jsonl', jsonl([{ Account: '1' }])))).ok).toBe(
        true,
      );
      expect(
        await queryRows(ctx.db, sql`select roll_id, account from properties_legacy order by roll_id`),
      ).toEqual([{ roll_id: live, account: 'kept' }]);
    } finally {
      await ctx.db.execute(sql`drop table properties_legacy`);
    }
  });
});
