import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { queryRows } from '../../db/database.ts';
import { collectGarbage } from '../../lib/collect-garbage.ts';
import { setupTestApp, testEngine } from '../../../test/helpers.ts';
import { buildClient } from '../../../test/factories.ts';
import { importRoll } from './import.service.ts';
import { unpackRecord } from '../properties/record-codec.ts';
import { jsonlSource } from './record-sources.ts';

/*
 * A county-sized roll: 40,000 records (22 MB) in a JSON Lines file, imported without holding the file in
 * memory; the load suite publishes 100,000 while readers search (load-with-faults.load.ts). The rate is
 * printed for information only (the benchmark, not this test, judges speed).
 */

const RECORDS = 40_000;
/** Ten heap samples across the import. */
const SAMPLE_EVERY = RECORDS / 10;

/** A full collection before each heap sample, so the samples show what is kept, not garbage yet to go. */
const retainedHeap = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};
// On disk, as a server imports (see TestDatabaseOptions.onDisk).
const ctx = setupTestApp({}, { onDisk: true });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-stream-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function writeRoll(file: string): Promise<number> {
  const out = fs.createWriteStream(file);
  for (let i = 1; i <= RECORDS; i++) {
    const line = JSON.stringify({
      Account: String(i),
      StreetNumber: String((i % 400) + 1),
      StreetName: `${['MAIN', 'ELM', 'POND', 'RIVER', 'HILL'][i % 5]} ${i % 2 ? 'ST' : 'RD'}`,
      MapLot: `R${String(Math.floor(i / 50)).padStart(4, '0')}-${String(i % 50).padStart(3, '0')}`,
      LandValue: 30_000 + (i % 900) * 100,
      TotalBuildingValue: 90_000 + (i % 1300) * 100,
      TotalAcres: (i % 500) / 100,
      Owners: [
        {
          OwnerName: `OWNER ${i}, SAMPLE`,
          Address1: `${i} MAIN ST`,
          City: 'COUNTY',
          State: 'ME',
          ZipCode: '04000',
        },
      ],
      Sales: [
        {
          SaleDate: `20${String(i % 25).padStart(2, '0')}-0${(i % 9) + 1}-1${i % 10}`,
          SalePrice: 100_000 + i,
        },
      ],
      Land: [{ LandCode: '1', LandDescription: 'House Lot', Amount: 30_000 }],
      Buildings: [
        { BuildingType: 'Cape', Area: 1200 + (i % 800), Bedrooms: (i % 4) + 1, FullBaths: (i % 2) + 1 },
      ],
      Taxes: [{ TaxYear: 2025, Rate: 0.0142, TaxableValue: 120_000, OriginalTaxAmount: 1704 }],
    });
    if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  return fs.statSync(file).size;
}

it(`imports ${RECORDS.toLocaleString('en-US')} records from a file it never holds in memory`, async () => {
  const file = path.join(dir, 'county.jsonl');
  const bytes = await writeRoll(file);
  const client = await buildClient(ctx.db);
  const baseHeap = retainedHeap();
  let peakHeap = baseHeap;
  let samples = 0;
  const phases = new Set<string>();
  const started = performance.now();
  const outcome = await importRoll(
    ctx.db,
    { clientId: client.id, userId: null, actor: 'test', fileName: 'county.jsonl' },
    jsonlSource(file),
    (p) => {
      phases.add(p.phase);
      // Every SAMPLE_EVERY records (progress comes with every batch written).
      if (Math.floor(p.processed / SAMPLE_EVERY) > samples) {
        samples = Math.floor(p.processed / SAMPLE_EVERY);
        peakHeap = Math.max(peakHeap, retainedHeap());
      }
    },
  );
  const seconds = (performance.now() - started) / 1000;
  expect(outcome.errors).toEqual([]);
  expect(outcome.ok).toBe(true);
  expect(outcome.total).toBe(RECORDS);
  // One pass: rows are written as they are checked, then the roll's indexes are built.
  expect([...phases]).toEqual(['importing', 'indexing', 'done']);

  const [row] = await queryRows<{ stored: number; parcel_count: number; last: string }>(
    ctx.db,
    sql`select (select count(*)::int from properties p where p.roll_id = c.active_roll_id) as stored,
                 c.parcel_count,
                 (select r.record from property_records r
                   where r.roll_id = c.active_roll_id and r.account = ${String(RECORDS)}) as last
            from clients c where c.id = ${client.id}`,
  );
  const last = (JSON.parse(unpackRecord(row!.last)) as { StreetName: string }).StreetName;
  expect({ ...row, last }).toEqual({ stored: RECORDS, parcel_count: RECORDS, last: 'MAIN RD' });
  // Streaming: what the import keeps (one batch, and the accounts seen, to catch duplicates) is well
  // under the file's size; held whole, as text or as objects, the file would take that or several times it.
  expect(samples).toBe(10);
  expect(peakHeap - baseHeap).toBeLessThan(bytes / 2);

  console.log(
    `[import-stream] ${testEngine}: ${RECORDS.toLocaleString('en-US')} records (${(bytes / 1e6).toFixed(0)} MB) in ${seconds.toFixed(1)} s = ${Math.round(RECORDS / seconds).toLocaleString('en-US')} records/s; heap +${((peakHeap - baseHeap) / 1e6).toFixed(0)} MB`,
  );
}, 900_000);
