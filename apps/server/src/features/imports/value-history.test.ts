import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { PropertyRecordInput } from '@opp/contracts';
import { queryRows } from '../../db/database.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { importRoll } from './import.service.ts';
import { csvSource, jsonlSource } from './record-sources.ts';

/*
 * Issue 39, History: a record's ValueHistory as a roll gives it, and the values of the roll a new one
 * replaces carried into it, read back as the public does (GET /api/fullproperty).
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

describe('ValueHistory', () => {
  it('imports with the record and reads back as the roll gave it', async () => {
    const client = await town();
    const given = [
      { Year: 2021, LandValue: 50000, BuildingValue: 150000, TotalValue: 200000 },
      { Year: 2022, LandValue: 55000, BuildingValue: null, TotalValue: 55000 },
    ];
    await publishRoll(ctx.db, client.id, [{ Account: 'H-1', ValueHistory: given }, { Account: 'H-2' }]);
    expect(await history(client.city, 'H-1')).toEqual(given);
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

  it("adds the replaced roll's values for each account on re-publishing, and keeps adding each year", async () => {
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

  it('carries the values the same when the file is prepared on worker threads', async () => {
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

  it('takes the year the replaced roll was published when its records give no tax year', async () => {
    const client = await town();
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 7, TotalBuildingValue: 8 }]);
    const [run] = await queryRows<{ year: number }>(
      ctx.db,
      sql`select extract(year from finished_at)::int as year from import_runs
           where id = (select active_roll_id from clients where id = ${client.id})`,
    );
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 9 }, { Account: 'EMPTY' }]);
    expect(await history(client.city, 'A')).toEqual([
      { Year: run!.year, LandValue: 7, BuildingValue: 8, TotalValue: 15 },
    ]);
    // A replaced record with no values adds nothing.
    await publishRoll(ctx.db, client.id, [{ Account: 'EMPTY', LandValue: 1 }]);
    expect(await history(client.city, 'EMPTY')).toEqual([]);
  });

  it('carries the values of a roll stored before ValueHistory existed (record format version 1)', async () => {
    const client = await town();
    await publishRoll(ctx.db, client.id, [
      { Account: 'A', LandValue: 30, TotalBuildingValue: 70, ...fy(2021) },
    ]);
    // Rewrite the published roll's records as version 1 stored them: no ValueHistory (version 2 stores it
    // first), no SuppressOwner (last).
    const [roll] = await queryRows<{ id: number }>(
      ctx.db,
      sql`select active_roll_id as id from clients where id = ${client.id}`,
    );
    const rows = await queryRows<{ account: string; record: string }>(
      ctx.db,
      sql`select account, record from property_records where roll_id = ${roll!.id}`,
    );
    for (const row of rows) {
      const packed = JSON.parse(row.record) as unknown[];
      const version1 = JSON.stringify([1, ...packed.slice(2, -1)]);
      await ctx.db.execute(
        sql`update property_records set record = ${version1} where roll_id = ${roll!.id} and account = ${row.account}`,
      );
    }
    expect(await history(client.city, 'A')).toEqual([]);
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 35, ...fy(2022) }]);
    expect(await history(client.city, 'A')).toEqual([
      { Year: 2021, LandValue: 30, BuildingValue: 70, TotalValue: 100 },
    ]);
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
    const res = await ctx.app.inject({
      url: `/api/fullproperty/A?city=${encodeURIComponent(client.city)}&state=NH`,
    });
    expect(res.json().LandValue).toBe(110);
    // The next good roll carries from the published one, not from the rejected file.
    await publishRoll(ctx.db, client.id, [{ Account: 'A', LandValue: 130, ...fy(2025) }]);
    expect(await history(client.city, 'A')).toEqual([
      { Year: 2024, LandValue: 110, BuildingValue: null, TotalValue: 110 },
      { Year: 2023, LandValue: 100, BuildingValue: null, TotalValue: 100 },
    ]);
  });
});
