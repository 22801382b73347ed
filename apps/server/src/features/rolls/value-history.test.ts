import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { PropertyRecordInput } from '@opp/contracts';
import { queryRows } from '../../db/database.ts';
import { SERVER_ROOT } from '../../paths.ts';
import { unpackRecord } from '../properties/record-codec.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { importRoll } from './import.service.ts';
import { csvSource, jsonlSource } from './record-sources.ts';
import { rollsRepository } from './rolls.repository.ts';

/*
 * Issues 39, 45, 46, History: a record's ValueHistory as a roll gives it, and the values of every roll the
 * town published (the town's valuation history table, migrations/0022), read back as the public does
 * (GET /api/fullproperty).
 */

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000 });

async function town() {
  const client = await buildClient(ctx.db, { stateProvince: 'New Hampshire' });
  return client;
}

async function history(city: string, account: string): Promise<unknown> {
  const res = await ctx.app.inject({
    url: `/api/fullproperty/${account}?city=${encodeURIComponent(city)}&state=NH`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ValueHistory;
}

const fy = (year: number) => ({ Taxes: [{ TaxYear: year, Rate: 0.02 }] });

/** The town's history lines of an account, as stored, oldest first. */
async function lines(clientId: number, account: string) {
  return queryRows<{ year: number; total: number | null }>(
    ctx.db,
    sql`select year, total_value as total from value_history
         where client_id = ${clientId} and account = ${account} order by year`,
  );
}

async function activeRoll(clientId: number): Promise<number> {
  const [roll] = await queryRows<{ id: number }>(
    ctx.db,
    sql`select active_roll_id as id from clients where id = ${clientId}`,
  );
  return roll!.id;
}

describe('ValueHistory', () => {
  it('imports with the record and reads back as the roll gave it, newest first', async () => {
    const client = await town();
    const given = [
      { Year: 2021, LandValue: 50000, BuildingValue: 150000, TotalValue: 200000 },
      { Year: 2022, LandValue: 55000, BuildingValue: null, TotalValue: 55000 },
    ];
    await publishRoll(ctx.db, client.id, [{ Account: 'H-1', ValueHistory: given }, { Account: 'H-2' }]);
    expect(await history(client.city, 'H-1')).toEqual([given[1], given[0]]);
    expect(await history(client.city, 'H-2')).toEqual([]);
  });

  it('comes from numbered History columns in a CSV roll', async () => {
    const client = await town();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-history-'));
    const file = path.join(dir, 'roll.csv');
    fs.writeFileSync(
      file,
      [
        'Account,LandValue,History1Year,History1Land,History1Building,History1Total,History2Year,History2LandValue',
        '7,"50,000",2023,"48,000","150,000","198,000",2022,45000',
      ].join('\n'),
    );
    try {
      const outcome = await importRoll(
        ctx.db,
        { clientId: client.id, userId: null, actor: 'test', fileName: 'roll.csv' },
        csvSource(file),
      );
      expect(outcome.errors).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(await history(client.city, '7')).toEqual([
      { Year: 2023, LandValue: 48000, BuildingValue: 150000, TotalValue: 198000 },
      { Year: 2022, LandValue: 45000, BuildingValue: null, TotalValue: null },
    ]);
  });

  it('refuses a history line without its year, naming the field', async () => {
    const client = await town();
    const outcome = await importRoll(
      ctx.db,
      { clientId: client.id, userId: null, actor: 'test', fileName: 'bad.jsonl' },
      async function* () {
        yield { line: 1, value: { Account: 'B-1', ValueHistory: [{ LandValue: 5 }] } };
      },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.errors[0]).toMatch(/^line 1: ValueHistory\[0\]\.Year: /);
  });

  it("lists the replaced roll's values for each account on publishing the next year's, and keeps adding each year", async () => {
    const client = await town();
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 40000, TotalBuildingValue: 160000, ...fy(2023) },
      { Account: 'B', LandValue: 10000, ...fy(2023) },
      { Account: 'GONE', LandValue: 1, ...fy(2023) },
    ]);
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 42000, TotalBuildingValue: 170000, ...fy(2024) },
      { Account: 'B', LandValue: 11000, ...fy(2024) },
      { Account: 'NEW', LandValue: 5000, ...fy(2024) },
    ]);
    expect(await history(client.city, 'A')).toEqual([
      { Year: 2023, LandValue: 40000, BuildingValue: 160000, TotalValue: 200000 },
    ]);
    expect(await history(client.city, 'B')).toEqual([
      { Year: 2023, LandValue: 10000, BuildingValue: null, TotalValue: 10000 },
    ]);
    // An account new in this roll had no values before.
    expect(await history(client.city, 'NEW')).toEqual([]);

    // A town that publishes every year builds its history without doing anything: newest first.
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 45000, TotalBuildingValue: 180000, ...fy(2025) },
      { Account: 'NEW', LandValue: 5500, ...fy(2025) },
    ]);
    expect(await history(client.city, 'A')).toEqual([
      { Year: 2024, LandValue: 42000, BuildingValue: 170000, TotalValue: 212000 },
      { Year: 2023, LandValue: 40000, BuildingValue: 160000, TotalValue: 200000 },
    ]);
    expect(await history(client.city, 'NEW')).toEqual([
      { Year: 2024, LandValue: 5000, BuildingValue: null, TotalValue: 5000 },
    ]);
  });

  it('files the values the same when the file is prepared on worker threads', async () => {
    const client = await town();
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 40000, TotalBuildingValue: 1000, ...fy(2023) },
      { Account: 'B', LandValue: 500, ...fy(2023) },
    ]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-history-'));
    const file = path.join(dir, 'roll.jsonl');
    const own = { Year: 2019, LandValue: 1, BuildingValue: 2, TotalValue: 3 };
    fs.writeFileSync(
      file,
      [
        { Account: 'A', LandValue: 41000, ...fy(2024) },
        { Account: 'B', LandValue: 600, ValueHistory: [own], ...fy(2024) },
        { Account: 'C', LandValue: 700, ...fy(2024) },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    try {
      const outcome = await importRoll(
        ctx.db,
        { clientId: client.id, userId: null, actor: 'test', fileName: 'roll.jsonl' },
        jsonlSource(file),
        () => {},
        { threads: 1 },
      );
      expect(outcome.errors).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(await history(client.city, 'A')).toEqual([
      { Year: 2023, LandValue: 40000, BuildingValue: 1000, TotalValue: 41000 },
    ]);
    expect(await history(client.city, 'B')).toEqual([
      { Year: 2023, LandValue: 500, BuildingValue: null, TotalValue: 500 },
      own,
    ]);
    expect(await history(client.city, 'C')).toEqual([]);
  });

  it('keeps a year the new roll already gives, and the rest of the old history once', async () => {
    const client = await town();
    const old = [{ Year: 2020, LandValue: 1, BuildingValue: 2, TotalValue: 3 }];
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 100, TotalBuildingValue: 200, ValueHistory: old, ...fy(2022) },
    ]);
    // The new file has its own history (an assessing system's): its 2022 line stays as it says.
    const own = [
      { Year: 2022, LandValue: 111, BuildingValue: 222, TotalValue: 333 },
      { Year: 2021, LandValue: 11, BuildingValue: 22, TotalValue: 33 },
    ];
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 120, TotalBuildingValue: 230, ValueHistory: own, ...fy(2023) },
    ]);
    expect(await history(client.city, 'A')).toEqual([...own, ...old]);
    // Publishing a roll of the same year again (a correction) adds no year twice, and never the roll's
    // own year: its values are the record's current ones, not history.
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 120, TotalBuildingValue: 230, ValueHistory: own, ...fy(2023) },
    ]);
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 120, TotalBuildingValue: 230, ValueHistory: own, ...fy(2023) },
    ]);
    const years = ((await history(client.city, 'A')) as { Year: number }[]).map((h) => h.Year);
    expect(years).toEqual([2022, 2021, 2020]);
  });

  it("shows the roll's own year when its file lists it, as the file gives it; a republish that does not, hides it", async () => {
    const client = await town();
    const listed = { Year: 2024, LandValue: 1, BuildingValue: 2, TotalValue: 3 };
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 9, ValueHistory: [listed], ...fy(2024) },
    ]);
    expect(await history(client.city, 'A')).toEqual([listed]);
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 9, ...fy(2024) }]);
    expect(await history(client.city, 'A')).toEqual([]);
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 10, ...fy(2025) }]);
    expect(await history(client.city, 'A')).toEqual([
      { Year: 2024, LandValue: 9, BuildingValue: null, TotalValue: 9 },
    ]);
  });

  it("gives a line the record's own total, outbuildings and extra features included, not land + building", async () => {
    const client = await town();
    // Lebanon, NH, map 1 lot 1: land 163,900 and building 283,100 of a 461,900 assessment.
    await publishRoll(ctx.db, client.id, [
      { Account: 'L-1', LandValue: 163900, TotalBuildingValue: 283100, Taxable: 461900, ...fy(2025) },
      // Taxable after a 25,000 exemption: the assessment is 225,500.
      {
        Account: 'X-1',
        LandValue: 45000,
        TotalBuildingValue: 180500,
        TotalExemption: 25000,
        Taxable: 200500,
        ...fy(2025),
      },
    ]);
    await publishRoll(
      ctx.db,
      client.id,
      [{ Account: 'L-1' }, { Account: 'X-1' }].map((r) => ({ ...r, ...fy(2026) })),
    );
    expect(await history(client.city, 'L-1')).toEqual([
      { Year: 2025, LandValue: 163900, BuildingValue: 283100, TotalValue: 461900 },
    ]);
    expect(await history(client.city, 'X-1')).toEqual([
      { Year: 2025, LandValue: 45000, BuildingValue: 180500, TotalValue: 225500 },
    ]);
  });

  it('adds no line when a roll of the same tax year is published again: the corrected values replace the wrong ones', async () => {
    const client = await town();
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 100, Taxable: 100, ...fy(2024) }]);
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 999, Taxable: 999, ...fy(2025) }]);
    // A correction of the 2025 roll, published twice.
    for (let i = 0; i < 2; i++)
      await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 200, Taxable: 200, ...fy(2025) }]);
    expect(await history(client.city, 'A')).toEqual([
      { Year: 2024, LandValue: 100, BuildingValue: null, TotalValue: 100 },
    ]);
    expect(await lines(client.id, 'A')).toEqual([
      { year: 2024, total: 100 },
      { year: 2025, total: 200 },
    ]);
    // The next year's roll lists 2025 as it was corrected, and adds one line.
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 300, Taxable: 300, ...fy(2026) }]);
    expect(await history(client.city, 'A')).toEqual([
      { Year: 2025, LandValue: 200, BuildingValue: null, TotalValue: 200 },
      { Year: 2024, LandValue: 100, BuildingValue: null, TotalValue: 100 },
    ]);
    expect(await lines(client.id, 'A')).toHaveLength(3);
  });

  it('files a roll whose records give no tax year under the year it was published; republished that year, it adds no line', async () => {
    const client = await town();
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 7, TotalBuildingValue: 8 },
      { Account: 'EMPTY' },
    ]);
    const [run] = await queryRows<{ year: number }>(
      ctx.db,
      sql`select extract(year from finished_at)::int as year from import_runs where id = ${await activeRoll(client.id)}`,
    );
    // The same day, corrected: still no history, and one line for the year.
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 9, TotalBuildingValue: 8 },
      { Account: 'EMPTY' },
    ]);
    expect(await history(client.city, 'A')).toEqual([]);
    expect(await lines(client.id, 'A')).toEqual([{ year: run!.year, total: 17 }]);
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 10, ...fy(run!.year + 1) },
      { Account: 'EMPTY', LandValue: 1, ...fy(run!.year + 1) },
    ]);
    expect(await history(client.city, 'A')).toEqual([
      { Year: run!.year, LandValue: 9, BuildingValue: 8, TotalValue: 17 },
    ]);
    // A record with no values adds nothing.
    expect(await history(client.city, 'EMPTY')).toEqual([]);
  });

  it('takes over the history the published rolls stored in their records (migration 0022)', async () => {
    const client = await town();
    await publishRoll(ctx.db, client.id, [
      { Account: 'V2', LandValue: 30, TotalBuildingValue: 70, Taxable: 120, ...fy(2021) },
      { Account: 'V1', LandValue: 5, ...fy(2021) },
      { Account: 'WHOLE', LandValue: 6, TotalBuildingValue: 4, ...fy(2021) },
    ]);
    const roll = await activeRoll(client.id);
    // The roll as it was stored before the migration: V2 in record format 2 (its ValueHistory first, a
    // carried year in it), V1 in format 1, WHOLE as JSON (before 0009); the history table empty.
    const records = await queryRows<{ account: string; record: string }>(
      ctx.db,
      sql`select account, record from property_records where roll_id = ${roll}`,
    );
    const stored: Record<string, string> = {};
    for (const { account, record } of records) {
      const packed = JSON.parse(record) as unknown[];
      stored[account] =
        account === 'V2'
          ? JSON.stringify([
              2,
              [
                [2019, 1, 2, 3],
                [2020, 10, 20, 35],
              ],
              ...packed.slice(1),
            ])
          : account === 'V1'
            ? JSON.stringify([1, ...packed.slice(1, -1)])
            : JSON.stringify({
                ...JSON.parse(unpackRecord(record)),
                ValueHistory: [{ Year: 2018, LandValue: 4, BuildingValue: null, TotalValue: 4 }],
              });
    }
    for (const [account, record] of Object.entries(stored))
      await ctx.db.execute(
        sql`update property_records set record = ${record} where roll_id = ${roll} and account = ${account}`,
      );
    await ctx.db.execute(sql`delete from value_history where client_id = ${client.id}`);
    const migration = fs.readFileSync(
      path.join(SERVER_ROOT, 'migrations', '0022_value_history_table.sql'),
      'utf8',
    );
    await ctx.database.execScriptInTransaction(
      // The table exists already: the migration's part that fills it.
      migration.slice(migration.indexOf('create temporary table')),
    );
    expect(await history(client.city, 'V2')).toEqual([
      { Year: 2020, LandValue: 10, BuildingValue: 20, TotalValue: 35 },
      { Year: 2019, LandValue: 1, BuildingValue: 2, TotalValue: 3 },
    ]);
    expect(await history(client.city, 'WHOLE')).toEqual([
      { Year: 2018, LandValue: 4, BuildingValue: null, TotalValue: 4 },
    ]);
    // Each record's own values were filed under its roll's year: the next year lists them.
    await publishRoll(
      ctx.db,
      client.id,
      ['V2', 'V1', 'WHOLE'].map((Account) => ({ Account, ...fy(2022) })),
    );
    expect(await history(client.city, 'V2')).toEqual([
      { Year: 2021, LandValue: 30, BuildingValue: 70, TotalValue: 120 },
      { Year: 2020, LandValue: 10, BuildingValue: 20, TotalValue: 35 },
      { Year: 2019, LandValue: 1, BuildingValue: 2, TotalValue: 3 },
    ]);
    expect(await history(client.city, 'V1')).toEqual([
      { Year: 2021, LandValue: 5, BuildingValue: null, TotalValue: 5 },
    ]);
    expect(await history(client.city, 'WHOLE')).toEqual([
      { Year: 2021, LandValue: 6, BuildingValue: 4, TotalValue: 10 },
      { Year: 2018, LandValue: 4, BuildingValue: null, TotalValue: 4 },
    ]);
  });

  it("goes with its town's rolls when the town is deleted", async () => {
    const client = await town();
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 1, ...fy(2024) }]);
    expect(await lines(client.id, 'A')).toHaveLength(1);
    await ctx.db.transaction((tx) => rollsRepository.deleteClientRolls(tx, client.id));
    expect(await lines(client.id, 'A')).toEqual([]);
  });

  it('is all or nothing: a rejected re-publish leaves the published roll and its history as they were', async () => {
    const client = await town();
    const first: PropertyRecordInput[] = [
      { Account: 'A', LandValue: 100, ...fy(2023) },
      { Account: 'B', LandValue: 200, ...fy(2023) },
    ];
    await publishRoll(ctx.db, client.id, first);
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 110, ...fy(2024) },
      { Account: 'B', LandValue: 210, ...fy(2024) },
    ]);
    const before = await history(client.city, 'A');
    const outcome = await importRoll(
      ctx.db,
      { clientId: client.id, userId: null, actor: 'test', fileName: 'bad.jsonl' },
      async function* () {
        yield { line: 1, value: { Account: 'A', LandValue: 120, ...fy(2025) } };
        yield { line: 2, value: { Account: 'B', LandValue: 'lots' } };
      },
    );
    expect(outcome.ok).toBe(false);
    expect(await history(client.city, 'A')).toEqual(before);
    expect(await lines(client.id, 'A')).toEqual([
      { year: 2023, total: 100 },
      { year: 2024, total: 110 },
    ]);
    const res = await ctx.app.inject({
      url: `/api/fullproperty/A?city=${encodeURIComponent(client.city)}&state=NH`,
    });
    expect(res.json().LandValue).toBe(110);
    // The next good roll lists the published one, not the rejected file.
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 130, ...fy(2025) }]);
    expect(await history(client.city, 'A')).toEqual([
      { Year: 2024, LandValue: 110, BuildingValue: null, TotalValue: 110 },
      { Year: 2023, LandValue: 100, BuildingValue: null, TotalValue: 100 },
    ]);
  });
});
