import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SORT_COLUMNS, type PropertyRecordInput, type SearchResponse } from '@opp/contracts';
import { setupTestApp } from '../../test/helpers.ts';
import { buildClient, publishRoll } from '../../test/factories.ts';
import { rollTable } from '../features/rolls/rolls.repository.ts';
import { queryRows } from './database.ts';

/*
 * Migration 0011 re-keys the sort indexes of every roll already published. What a town would notice if
 * it went wrong: its searches answering differently, or failing, after the upgrade.
 */

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000 });

const MIGRATION = fs.readFileSync(
  path.resolve(import.meta.dirname, '../../migrations/0011_sort_indexes_without_roll.sql'),
  'utf8',
);

const SORT_KEYS: Array<[string, string]> = [
  ['maplot', 'map_lot_key'],
  ['name', 'name_key'],
  ['location', 'location_key'],
  ['buildingland', 'building_land'],
  ['acres', 'total_acres'],
  ['saledate', 'sale_date'],
  ['saleprice', 'sale_price'],
];

/** The sort indexes as 0006 declared them (roll_id first): what a database holds before 0011. */
const BEFORE_0011 = [
  `drop index ${SORT_KEYS.flatMap(([n]) => [`properties_${n}_idx`, `properties_${n}_desc_idx`]).join(', ')}`,
  ...SORT_KEYS.flatMap(([n, column]) => [
    `create index properties_${n}_idx on properties (roll_id, ${column}, account_key)`,
    `create index properties_${n}_desc_idx on properties (roll_id, ${column} desc nulls last, account_key)`,
  ]),
].join(';\n');

/** Many ties and empty values in every sort column, so the tie-break and "empty last" are exercised. */
const town = (): PropertyRecordInput[] =>
  Array.from({ length: 240 }, (_, i) => ({
    Account: `${(i * 37) % 240}`,
    MapLot: i % 11 === 0 ? null : `R${(i % 9) + 1}-${(i * 7) % 30}`,
    Owners: i % 13 === 0 ? [] : [{ OwnerName: `OWNER ${String.fromCharCode(65 + (i % 20))}` }],
    StreetNumber: String((i % 40) + 1),
    StreetName: i % 10 === 0 ? null : ['Lake Rd', 'Main St', 'Hill Rd'][i % 3],
    TotalAcres: i % 7 === 0 ? null : (i % 13) + 0.5,
    LandValue: 1000 * (i % 17),
    BuildingValue: i % 5 === 0 ? null : 2000 * (i % 6),
    Sales:
      i % 4 === 0
        ? []
        : [{ SaleDate: `20${10 + (i % 12)}-0${1 + (i % 9)}-1${i % 10}`, SalePrice: 5000 * (i % 23) }],
  }));

/** Every answer a visitor can get from the SQL path for this town: each order both ways, and a count. */
async function answers(clientId: number) {
  return ctx.app.rollIndexes!.withoutIndexes(async () => {
    const out: Record<string, unknown> = {};
    const ask = async (body: object, page = 1) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/propertysearch/${clientId}?pagesize=100&page=${page}`,
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as SearchResponse;
    };
    for (const sortby of SORT_COLUMNS)
      for (const descending of [false, true])
        for (const page of [1, 3])
          out[`${sortby} ${descending ? 'desc' : 'asc'} p${page}`] = (
            await ask({ sort: { sortby, descending } }, page)
          ).SearchProperties.map((p) => p.Account);
    const priced = await ask({ filters: { sale: { price: { start: 20_000, end: 60_000 } } } });
    out.pricedTotal = priced.TotalRecords;
    return out;
  });
}

/** The key columns of a roll table's sort indexes (everything but the word index and primary key). */
const sortIndexKeys = async (rollId: number) =>
  (
    await queryRows<{ def: string }>(
      ctx.db,
      sql`select indexdef as def from pg_indexes
           where tablename = ${rollTable(rollId)} and indexdef like '%account_key%'`,
    )
  )
    .map((r) => /USING btree \((.*)\)$/.exec(r.def)![1]!)
    .sort();

let upgraded = 0;
let upgradedRoll = 0;
let before: Record<string, unknown> = {};

beforeAll(async () => {
  await ctx.database.execScriptInTransaction(BEFORE_0011);
  upgraded = (await buildClient(ctx.db, { city: 'Oldroll' })).id;
  upgradedRoll = (await publishRoll(ctx.db, upgraded, town())).client.activeRollId!;
  before = await answers(upgraded);
  await ctx.database.execScriptInTransaction(MIGRATION);
}, 120_000);

describe('migration 0011 (sort indexes keyed on their column)', () => {
  it('a roll published before the upgrade answers every sort and count as it did', async () => {
    expect(Object.keys(before)).toHaveLength(SORT_COLUMNS.length * 4 + 1);
    expect(before.pricedTotal).toBeGreaterThan(0);
    expect(await answers(upgraded)).toEqual(before);
    const keys = await sortIndexKeys(upgradedRoll);
    // Both directions of every sort: the fourteen 0011 re-keys, and those of later sort columns (0014).
    expect(keys).toHaveLength(SORT_COLUMNS.length * 2);
    for (const k of keys) expect(k).toMatch(/^\w+( DESC NULLS LAST)?, account_key\) INCLUDE \(roll_id$/);
  });

  it('a roll published after it is indexed the same way and answers the same', async () => {
    const fresh = (await buildClient(ctx.db, { city: 'Newroll' })).id;
    const { client } = await publishRoll(ctx.db, fresh, town());
    expect(await sortIndexKeys(client.activeRollId!)).toEqual(await sortIndexKeys(upgradedRoll));
    expect(await answers(fresh)).toEqual(before);
  });
});
