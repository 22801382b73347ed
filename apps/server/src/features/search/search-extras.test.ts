import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PropertyRecordInput, SearchResponse, Suggestion } from '@opp/contracts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { TEST_TOWN } from '../../../test/test-town.ts';
import { EXACT_COUNT_LIMIT } from './search.service.ts';

// Far more requests than a visitor makes: the per-address limits are tested elsewhere.
const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000, exportRateLimitPerMinute: 1_000_000 });
let townId = 0;
let bigTownId = 0;
const BIG = 6_000;

/** A plain generated town, big enough that deep pages take the count-first, read-from-the-end path. */
const bigTown = (): PropertyRecordInput[] =>
  Array.from({ length: BIG }, (_, i) => ({
    Account: `B${i + 1}`,
    MapLot: `U${(i % 97) + 1}-${i + 1}`,
    Owners: [{ OwnerName: i % 3 === 0 ? `LAKE HOLDINGS ${i % 50}` : `OWNER ${i % 400}` }],
    StreetNumber: String((i % 200) + 1),
    StreetName: i % 2 ? 'Lake Rd' : 'Hill Rd',
    TotalAcres: i % 7 === 0 ? null : (i % 13) + 0.5,
    LandValue: 1000 * (i % 17),
    Sales:
      i % 5 === 0
        ? []
        : [{ SaleDate: `20${10 + (i % 12)}-0${1 + (i % 9)}-1${i % 10}`, SalePrice: 1000 * (i % 31) }],
  }));

beforeAll(async () => {
  const town = await buildClient(ctx.db, { city: 'Exportville' });
  townId = town.id;
  await publishRoll(ctx.db, town.id, TEST_TOWN);
  const big = await buildClient(ctx.db, { city: 'Bigville' });
  bigTownId = big.id;
  await publishRoll(ctx.db, big.id, bigTown());
}, 120_000);

const exportUrl = (params: Record<string, string>, clientId = townId) =>
  `/api/propertysearch/${clientId}/export.csv?${new URLSearchParams(params)}`;

function parseCsv(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  return parse(text.slice(1), { relaxQuotes: false }) as string[][];
}

describe('GET /api/propertysearch/{clientId}/export.csv', () => {
  it('sends the whole result as CSV with a header row and the summary columns, in sort order', async () => {
    const res = await ctx.app.inject(
      exportUrl({ query: 'main', sort: JSON.stringify({ sortby: 'Location', descending: false }) }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Exportville-properties.csv"');
    expect(res.headers['x-total-records']).toBe('6');
    expect(res.headers['x-export-truncated']).toBe('false');
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual([
      'Account',
      'Map/Lot',
      'Owner 1',
      'Owner 2',
      'Other Owners',
      'Street Number',
      'Apartment',
      'Street Name',
      'Building Value',
      'Land Value',
      'Building + Land',
      'Acres',
      'Last Sale Date',
      'Last Sale Price',
      'Year Built',
      'Style',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['7', '2', '9', '10', '3', '8']);
    expect(rows[2]).toEqual([
      '2',
      'R01-010',
      "O'BRIEN, PATRICK",
      '',
      '',
      '9',
      '',
      'Main St',
      '80000',
      '40000',
      '120000',
      '0.5',
      '2018-03-01',
      '150000',
      '',
      'Cape',
    ]);
    expect(res.body).toContain('\r\n');
  });

  it('takes filters as URL-encoded JSON, and exports the whole roll by default in name order', async () => {
    const filters = JSON.stringify({ building: { ownership: ['commercial'] } });
    const rows = parseCsv((await ctx.app.inject(exportUrl({ filters }))).body);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['3', '8']);
    expect(rows[1]![2]).toBe('JOSÉ ÁLVAREZ');
    const all = parseCsv((await ctx.app.inject(exportUrl({}))).body);
    expect(all.slice(1).map((r) => r[0])).toEqual(['6', '5', '9', '3', '2', '1', '8', '4', '10', '7']);
    expect(all[1]).toEqual(['6', '10-1', 'ADAMS, ZOE', '', '', '', '', '', '', '', '', '', '', '', '', '']);
  });

  it('exports more rows than a batch, matching the search result row for row', async () => {
    const sort = JSON.stringify([{ sortby: 'Acres', descending: true }]);
    const res = await ctx.app.inject(exportUrl({ query: 'lake', sort }, bigTownId));
    const rows = parseCsv(res.body).slice(1);
    const total = Number(res.headers['x-total-records']);
    expect(rows).toHaveLength(total);
    const viaSearch: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 500); page++) {
      const r = await ctx.app.inject({
        method: 'POST',
        url: `/api/propertysearch/${bigTownId}?query=lake&pagesize=500&page=${page}`,
        payload: { sort: JSON.parse(sort) },
      });
      viaSearch.push(...(r.json() as SearchResponse).SearchProperties.map((p) => p.Account));
    }
    expect(rows.map((r) => r[0])).toEqual(viaSearch);
  });

  it('neutralises text a spreadsheet would run as a formula', async () => {
    const evil = await buildClient(ctx.db, { city: 'Formulaville' });
    await publishRoll(ctx.db, evil.id, [
      {
        Account: '1',
        Owners: [{ OwnerName: '=HYPERLINK("http://x.test","click")' }, { OwnerName: '@SUM(A1)' }],
      },
    ]);
    const rows = parseCsv((await ctx.app.inject(exportUrl({}, evil.id))).body);
    expect(rows[1]![2]).toBe('\'=HYPERLINK("http://x.test","click")');
    expect(rows[1]![3]).toBe("'@SUM(A1)");
  });

  it('quotes every text cell and neutralises formulas after blanks; carries every owner (issues 37, 38)', async () => {
    const evil = await buildClient(ctx.db, { city: 'Semicolonville' });
    const owners = [
      'x;=1+2;y',
      ' =1+2',
      '\n=cmd|" /C calc"!A0',
      '\u00a0+1',
      '\t-2',
      'PLAIN, OWNER',
      '\u3000@SUM(A1)',
    ];
    await publishRoll(ctx.db, evil.id, [
      { Account: '1', StreetName: '-5 Main St', Owners: owners.map((OwnerName) => ({ OwnerName })) },
    ]);
    const res = await ctx.app.inject(exportUrl({}, evil.id));
    const line = res.body.slice(1).split('\r\n')[1]!;
    // Quoted as one cell whatever the spreadsheet splits on, and not run after a leading blank.
    expect(line.startsWith('"1","","x;=1+2;y","\' =1+2","\'\n=cmd|"" /C calc""!A0; ')).toBe(true);
    const row = parseCsv(res.body)[1]!;
    expect(row[7]).toBe("'-5 Main St");
    // Every owner is in the file: two in their own columns, the rest in "Other Owners".
    expect(row[4]).toBe(`'${owners.slice(2).join('; ')}`);
  });

  it('answers 400 naming the parameter for bad JSON or bad values, and 404 for unknown towns', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ filters: '{not json' }, 'filters'],
      [{ sort: '{"sortby":"Owner"}' }, 'sort.0.sortby'],
      [{ filters: '{"sale":{"price":{"start":-5}}}' }, 'filters.sale.price.start'],
      [{ query: '%%' }, 'query'],
      [{ query: 'x'.repeat(201) }, 'query'],
    ];
    for (const [params, field] of cases) {
      const res = await ctx.app.inject(exportUrl(params));
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await ctx.app.inject(exportUrl({}, 999_999))).statusCode).toBe(404);
  });
});

describe('a bigger town: estimated totals and deep pages', () => {
  it('counts a large result exactly from the first page (roll index)', async () => {
    const first = (
      await ctx.app.inject({
        method: 'POST',
        url: `/api/propertysearch/${bigTownId}?query=rd&pagesize=500`,
      })
    ).json() as SearchResponse;
    expect(first).toMatchObject({ TotalIsEstimate: false, TotalRecords: BIG, Pages: 12 });
    expect(first.SearchProperties).toHaveLength(500);
  });

  it('without the roll index: estimates the total of a large result on early pages, and counts exactly for deep ones', () =>
    ctx.app.rollIndexes!.withoutIndexes(async () => {
      const first = (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/propertysearch/${bigTownId}?query=rd&pagesize=500`,
        })
      ).json() as SearchResponse;
      expect(first.TotalIsEstimate).toBe(true);
      expect(first.TotalRecords).toBeGreaterThan(EXACT_COUNT_LIMIT);
      expect(first.SearchProperties).toHaveLength(500);
      const deep = (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/propertysearch/${bigTownId}?query=rd&pagesize=500&page=12`,
        })
      ).json() as SearchResponse;
      expect(deep).toMatchObject({ TotalIsEstimate: false, TotalRecords: BIG, Pages: 12 });
      const past = (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/propertysearch/${bigTownId}?query=rd&pagesize=500&page=13`,
        })
      ).json() as SearchResponse;
      expect(past).toMatchObject({
        SearchProperties: [],
        TotalIsEstimate: false,
        TotalRecords: BIG,
        Pages: 12,
      });
      const small = (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/propertysearch/${bigTownId}?query=holdings`,
        })
      ).json() as SearchResponse;
      expect(small).toMatchObject({ TotalIsEstimate: false, TotalRecords: BIG / 3 });
    }));

  it('pages through a large result without overlap or gaps, reading late pages from the end', async () => {
    const records = bigTown();
    const acres = new Map(records.map((r) => [String(r.Account), r.TotalAcres ?? null]));
    const num = (a: string) => Number(a.slice(1));
    for (const query of ['', 'rd']) {
      for (const descending of [false, true]) {
        const sort = { sortby: 'Acres', descending };
        const all: string[] = [];
        for (let page = 1; page <= 13; page++) {
          const res = await ctx.app.inject({
            method: 'POST',
            url: `/api/propertysearch/${bigTownId}?query=${query}&pagesize=500&page=${page}`,
            payload: { sort },
          });
          const rows = (res.json() as SearchResponse).SearchProperties.map((p) => p.Account);
          if (page === 13) expect(rows).toEqual([]);
          all.push(...rows);
        }
        // Acres in the asked direction, empty acres last, ties by account in natural order (B2 < B10).
        const expected = [...acres.keys()].sort((a, b) => {
          const x = acres.get(a)!;
          const y = acres.get(b)!;
          if (x === null || y === null) return x === y ? num(a) - num(b) : x === null ? 1 : -1;
          return (descending ? y - x : x - y) || num(a) - num(b);
        });
        expect(all).toEqual(expected);
      }
    }
  });
});

describe('GET /api/suggest/{clientId}', () => {
  const suggest = async (q: string, clientId = townId) => {
    const res = await ctx.app.inject(`/api/suggest/${clientId}?q=${encodeURIComponent(q)}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { suggestions: Suggestion[] }).suggestions;
  };

  it('suggests owner names, one entry per name, with the account only when one parcel has it', async () => {
    expect(await suggest('smi')).toEqual([
      { kind: 'owner', text: 'SMITH, JOHN', account: null },
      { kind: 'owner', text: 'SMITH, MARY', account: '1' },
      { kind: 'owner', text: 'SMITHSON, ALICE', account: '4' },
    ]);
    expect(await suggest("o'bri")).toEqual([{ kind: 'owner', text: "O'BRIEN, PATRICK", account: '2' }]);
    expect(await suggest('jose')).toEqual([{ kind: 'owner', text: 'JOSÉ ÁLVAREZ', account: '3' }]);
  });

  it('suggests street addresses and map/lots, map/lots first for a number-led entry', async () => {
    expect(await suggest('12 ma')).toEqual([{ kind: 'address', text: '12 Main St', account: '8' }]);
    expect(await suggest('elm')).toEqual([
      { kind: 'address', text: '12 Elm St', account: '1' },
      { kind: 'address', text: '14 Elm St', account: '5' },
    ]);
    expect(await suggest('R01-0')).toEqual([
      { kind: 'maplot', text: 'R01-002-A', account: '1' },
      { kind: 'maplot', text: 'R01-002-B', account: '8' },
      { kind: 'maplot', text: 'R01-010', account: '2' },
    ]);
  });

  it('reads finished words (followed by a space) whole, and the word being typed as a prefix', async () => {
    expect(await suggest('10')).toEqual([
      { kind: 'maplot', text: '10-1', account: '6' },
      { kind: 'address', text: '10 Main St, Unit 2B', account: '3' },
      { kind: 'address', text: '100 Oak Ave', account: '4' },
      { kind: 'maplot', text: '2-10', account: '5' },
      { kind: 'maplot', text: 'R03-100', account: '9' },
    ]);
    expect(await suggest('10 ma')).toEqual([{ kind: 'address', text: '10 Main St, Unit 2B', account: '3' }]);
    expect(await suggest('smith ')).toEqual([
      { kind: 'owner', text: 'SMITH, JOHN', account: null },
      { kind: 'owner', text: 'SMITH, MARY', account: '1' },
    ]);
    expect(await suggest('R01-002 ')).toEqual([
      { kind: 'maplot', text: 'R01-002-A', account: '1' },
      { kind: 'maplot', text: 'R01-002-B', account: '8' },
    ]);
  });

  it('gives at most ten, and nothing for an empty entry', async () => {
    const many = await suggest('lake', bigTownId);
    expect(many.length).toBe(10);
    // Too many matches to have seen them all: no entry claims to be a single parcel.
    expect(many.every((s) => s.account === null)).toBe(true);
    expect(await suggest('')).toEqual([]);
    expect(await suggest('zzz')).toEqual([]);
  });

  it('answers 400 for over-long or letterless entries and 404 for unknown towns', async () => {
    expect((await ctx.app.inject(`/api/suggest/${townId}?q=${'a'.repeat(201)}`)).statusCode).toBe(400);
    const res = await ctx.app.inject(`/api/suggest/${townId}?q=%25%25`);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].field).toBe('q');
    expect((await ctx.app.inject('/api/suggest/999999?q=smith')).statusCode).toBe(404);
  });
});

describe('GET /api/landbuilding/{clientId}', () => {
  it("lists the roll's distinct land types and building styles, sorted", async () => {
    const res = await ctx.app.inject(`/api/landbuilding/${townId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      landType: ['Commercial', 'Residential', 'Waterfront', 'Woodland'],
      buildingStyle: ['Cape', 'Colonial', 'Ranch'],
    });
  });

  it('is empty for a town without a roll, and follows a newly published roll', async () => {
    const town = await buildClient(ctx.db, { city: 'Newville' });
    expect((await ctx.app.inject(`/api/landbuilding/${town.id}`)).json()).toEqual({
      landType: [],
      buildingStyle: [],
    });
    await publishRoll(ctx.db, town.id, [{ Account: '1', Land: [{ LandDescription: 'Farm' }] }]);
    expect((await ctx.app.inject(`/api/landbuilding/${town.id}`)).json().landType).toEqual(['Farm']);
    await publishRoll(ctx.db, town.id, [{ Account: '1', Land: [{ LandDescription: 'Orchard' }] }]);
    expect((await ctx.app.inject(`/api/landbuilding/${town.id}`)).json().landType).toEqual(['Orchard']);
  });
});

describe('conditional GETs on roll-derived answers', () => {
  it('sends ETag and Last-Modified, answers 304 to either validator, and changes with a new roll', async () => {
    const town = await buildClient(ctx.db, { city: 'Cacheville' });
    await publishRoll(ctx.db, town.id, [{ Account: '1', Land: [{ LandDescription: 'Farm' }] }]);
    for (const url of [
      `/api/landbuilding/${town.id}`,
      `/api/suggest/${town.id}?q=1`,
      `/api/propertysearch/${town.id}/export.csv`,
    ]) {
      const first = await ctx.app.inject(url);
      expect(first.statusCode, url).toBe(200);
      const etag = first.headers.etag as string;
      const lastModified = first.headers['last-modified'] as string;
      expect(etag).toMatch(/^W\/".+"$/);
      expect(first.headers['cache-control']).toBe('public, no-cache');
      const byTag = await ctx.app.inject({ url, headers: { 'if-none-match': etag } });
      expect(byTag.statusCode).toBe(304);
      expect(byTag.body).toBe('');
      const byDate = await ctx.app.inject({ url, headers: { 'if-modified-since': lastModified } });
      expect(byDate.statusCode).toBe(304);
      const stale = await ctx.app.inject({ url, headers: { 'if-none-match': 'W/"other"' } });
      expect(stale.statusCode).toBe(200);
    }
    const before = (await ctx.app.inject(`/api/landbuilding/${town.id}`)).headers.etag as string;
    await publishRoll(ctx.db, town.id, [{ Account: '1', Land: [{ LandDescription: 'Orchard' }] }]);
    const after = await ctx.app.inject({
      url: `/api/landbuilding/${town.id}`,
      headers: { 'if-none-match': before },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json().landType).toEqual(['Orchard']);
  });
});
