import { beforeAll, describe, expect, it } from 'vitest';
import type { PropertyRecordInput, SearchResponse } from '@opp/contracts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';

/*
 * Year built, a search column added through search-columns.ts: the sort YearBuilt (the newest building,
 * residence or commercial; parcels without a year last both ways) and the filter building.yearBuilt
 * (any building in the range), the same from the roll index and from SQL.
 */

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000, exportRateLimitPerMinute: 1_000_000 });
let townId = 0;

const home = (year: number | null) => ({ BuildingType: 'CAPE', YearBuilt: year });
const shop = (year: number | null) => ({ Class: 'C', YearBuilt: year });

const TOWN: PropertyRecordInput[] = [
  { Account: 'Y1', Buildings: [home(1920)] },
  // A farmhouse and a new barn: built 1850 and 2001, nothing in between.
  { Account: 'Y2', Buildings: [home(1850), home(2001)] },
  { Account: 'Y3', CommercialBuildings: [shop(1975)] },
  { Account: 'Y4', Buildings: [home(null)] },
  { Account: 'Y5' },
  { Account: 'Y6', Buildings: [home(1975)], CommercialBuildings: [shop(2010)] },
  { Account: 'Y7', Buildings: [home(1920)] },
];

beforeAll(async () => {
  const town = await buildClient(ctx.db, { city: 'Yearbury' });
  townId = town.id;
  await publishRoll(ctx.db, town.id, TOWN);
});

async function search(body: unknown) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/propertysearch/${townId}?pagesize=500`,
    payload: body as object,
  });
}

async function accounts(body: unknown): Promise<string[]> {
  const res = await search(body);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SearchResponse).SearchProperties.map((p) => p.Account);
}

const years = (yearBuilt: unknown) => accounts({ filters: { building: { yearBuilt } } });

/** Every check runs on both search paths: the roll index and SQL. */
const bothPaths = (name: string, check: () => Promise<void>) => {
  it(`${name} (roll index)`, check);
  it(`${name} (SQL)`, () => ctx.app.rollIndexes!.withoutIndexes(check));
};

describe('year built', () => {
  bothPaths(
    'sorts by the newest building, parcels without a year last both ways, ties by account',
    async () => {
      expect(await accounts({ sort: { sortby: 'YearBuilt' } })).toEqual([
        'Y1',
        'Y7',
        'Y3',
        'Y2',
        'Y6',
        'Y4',
        'Y5',
      ]);
      expect(await accounts({ sort: { sortby: 'YearBuilt', descending: true } })).toEqual([
        'Y6',
        'Y2',
        'Y3',
        'Y1',
        'Y7',
        'Y4',
        'Y5',
      ]);
    },
  );

  bothPaths(
    'matches a parcel when any of its residences or commercial buildings was built in the range',
    async () => {
      // Y2's buildings (1850, 2001) straddle the range but none is in it.
      expect(await years({ start: 1960, end: 1980 })).toEqual(['Y3', 'Y6']);
      expect(await years({ start: 1975, end: 1975 })).toEqual(['Y3', 'Y6']);
      expect(await years({ start: 2005 })).toEqual(['Y6']);
      expect(await years({ start: '', end: '1900' })).toEqual(['Y2']);
      expect(await years({ end: 1920 })).toEqual(['Y1', 'Y2', 'Y7']);
      expect(await years({ start: 2000, end: null })).toEqual(['Y2', 'Y6']);
      // An empty range is no filter at all.
      expect(await years({ start: '', end: '' })).toHaveLength(TOWN.length);
    },
  );

  bothPaths('combines with the other filters and sorts', async () => {
    expect(
      await accounts({
        filters: { building: { yearBuilt: { start: 1900 }, ownership: ['residential'] } },
        sort: [{ sortby: 'YearBuilt', descending: true }],
      }),
    ).toEqual(['Y6', 'Y2', 'Y1', 'Y7']);
  });

  it('refuses a range whose start is after its end, and a year that is not a number, naming the field', async () => {
    for (const [yearBuilt, field] of [
      [{ start: 2000, end: 1900 }, 'filters.building.yearBuilt'],
      [{ start: 'old' }, 'filters.building.yearBuilt.start'],
    ] as const) {
      const res = await search({ filters: { building: { yearBuilt } } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(field);
    }
  });
});
