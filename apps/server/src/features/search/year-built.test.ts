import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PropertyRecordInput, SearchResponse } from '@opp/contracts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';

/*
 * Year built, a search column added through search-columns.ts: the sort YearBuilt (the newest building,
 * residence or commercial; parcels without a year last both ways) and the filter building.yearBuilt
 * (any building in the range), the same from the roll index and from SQL. Results and their CSV carry
 * it, with the residences' styles, for people comparing parcels (issue 48).
 */

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000, exportRateLimitPerMinute: 1_000_000 });
let townId = 0;

const home = (year: number | null, style = 'CAPE') => ({ BuildingType: style, YearBuilt: year });
const shop = (year: number | null) => ({ Class: 'C', YearBuilt: year });

const TOWN: PropertyRecordInput[] = [
  { Account: 'Y1', Buildings: [home(1920)] },
  // A farmhouse and a new barn: built 1850 and 2001, nothing in between.
  { Account: 'Y2', Buildings: [home(1850, 'FARMHOUSE'), home(2001)] },
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

  bothPaths(
    'results and their CSV carry the year built and the styles, null or empty where none',
    async () => {
      // What each parcel shows: the newest building's year, its residences' styles (a commercial
      // building has none); a parcel with neither, or a residence without a year, answers null and [].
      const shown = (res: { json(): unknown }) =>
        (res.json() as SearchResponse).SearchProperties.map((p) => [
          p.Account,
          p.YearBuilt,
          p.BuildingStyles,
        ]);
      const expected = [
        ['Y1', 1920, ['CAPE']],
        ['Y2', 2001, ['CAPE', 'FARMHOUSE']],
        ['Y3', 1975, []],
        ['Y4', null, ['CAPE']],
        ['Y5', null, []],
        ['Y6', 2010, ['CAPE']],
        ['Y7', 1920, ['CAPE']],
      ];
      const all = await search({ sort: { sortby: 'MapLot' } });
      expect(shown(all)).toEqual(expected);
      // A filtered search (matched first, then sorted) carries them too.
      const filtered = await search({ filters: { building: { ownership: ['commercial'] } } });
      expect(shown(filtered)).toEqual([expected[2], expected[5]]);

      const csv = async (params: Record<string, string>) => {
        const res = await ctx.app.inject(
          `/api/propertysearch/${townId}/export.csv?${new URLSearchParams(params)}`,
        );
        expect(res.statusCode, res.body).toBe(200);
        const rows = parse(res.body.slice(1)) as string[][];
        const year = rows[0]!.indexOf('Year Built');
        const style = rows[0]!.indexOf('Style');
        expect(rows[0]!.slice(-2)).toEqual(['Year Built', 'Style']);
        return rows.slice(1).map((r) => [r[0], r[year], r[style]]);
      };
      expect(await csv({ sort: JSON.stringify({ sortby: 'MapLot' }) })).toEqual([
        ['Y1', '1920', 'CAPE'],
        ['Y2', '2001', 'CAPE; FARMHOUSE'],
        ['Y3', '1975', ''],
        ['Y4', '', 'CAPE'],
        ['Y5', '', ''],
        ['Y6', '2010', 'CAPE'],
        ['Y7', '1920', 'CAPE'],
      ]);
      expect(await csv({ query: 'y5' })).toEqual([['Y5', '', '']]);
    },
  );

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
