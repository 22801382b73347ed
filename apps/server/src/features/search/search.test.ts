import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '@opp/contracts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { ALL_ACCOUNTS, TEST_TOWN } from '../../../test/test-town.ts';

// Far more requests than a visitor makes: the per-address limits are tested elsewhere.
const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000, exportRateLimitPerMinute: 1_000_000 });
let townId = 0;
let emptyTownId = 0;

beforeAll(async () => {
  const town = await buildClient(ctx.db, { city: 'Searchville' });
  townId = town.id;
  await publishRoll(ctx.db, town.id, TEST_TOWN);
  emptyTownId = (await buildClient(ctx.db, { city: 'Emptyville' })).id;
});

interface SearchArgs {
  query?: string;
  page?: number | string;
  pagesize?: number | string;
  body?: unknown;
  clientId?: number;
  path?: 'propertysearch' | 'search';
}

async function search(args: SearchArgs = {}) {
  const qs = new URLSearchParams();
  if (args.query !== undefined) qs.set('query', args.query);
  if (args.page !== undefined) qs.set('page', String(args.page));
  if (args.pagesize !== undefined) qs.set('pagesize', String(args.pagesize));
  return ctx.app.inject({
    method: 'POST',
    url: `/api/${args.path ?? 'propertysearch'}/${args.clientId ?? townId}?${qs}`,
    // A string body is sent as raw JSON text (JSON.stringify would turn 1e309 into null).
    ...(typeof args.body === 'string'
      ? { payload: args.body, headers: { 'content-type': 'application/json' } }
      : args.body === undefined
        ? {}
        : { payload: args.body as object }),
  });
}

/** The accounts a search finds, in the order returned. */
async function accounts(args: SearchArgs = {}): Promise<string[]> {
  const res = await search({ pagesize: 500, ...args });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SearchResponse).SearchProperties.map((p) => p.Account);
}

const sorted = (list: string[]) => [...list].sort((a, b) => Number(a) - Number(b));
const found = async (query: string, body?: unknown) => sorted(await accounts({ query, body }));
const filtered = async (filters: unknown) => sorted(await accounts({ body: { filters } }));

async function expect400(args: SearchArgs, field: string) {
  const res = await search(args);
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body.code).toBe('validation_failed');
  expect(body.fields.map((f: { field: string }) => f.field)).toContain(field);
  expect(body.message).toContain(field);
}

describe('POST /api/propertysearch/{clientId}: the response', () => {
  it('answers the spec shape with §3 summaries, totals and the roll date', async () => {
    const res = await search({ query: 'R01-002-A' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as SearchResponse;
    expect(body).toMatchObject({
      PageSize: 50,
      PageNumber: 1,
      Pages: 1,
      TotalRecords: 1,
      TotalIsEstimate: false,
    });
    expect(new Date(body.LastUpdated!).getTime()).toBeGreaterThan(Date.now() - 600_000);
    expect(body.SearchProperties).toEqual([
      {
        Account: '1',
        MapLot: 'R01-002-A',
        Owners: [{ OwnerName: 'SMITH, JOHN' }, { OwnerName: 'SMITH, MARY' }],
        StreetNumber: '12',
        Apartment: '',
        StreetName: 'Elm St',
        TotalBuildingValue: 100000,
        LandValue: 50000,
        TotalAcres: 1.5,
        SaleDate: '2021-06-15',
        SalePrice: 250000,
        ImageURL: '/api/files/image/p1.jpg',
        YearBuilt: null,
        BuildingStyles: ['Colonial'],
      },
    ]);
  });

  it('lists the whole roll without query, filters or body, sorted by name', async () => {
    const res = await search();
    expect(res.statusCode).toBe(200);
    const body = res.json() as SearchResponse;
    expect(body.TotalRecords).toBe(10);
    expect(body.Pages).toBe(1);
    expect(body.SearchProperties.map((p) => p.Account)).toEqual([
      '6',
      '5',
      '9',
      '3',
      '2',
      '1',
      '8',
      '4',
      '10',
      '7',
    ]);
  });

  it('answers the same through the provider console alias POST /api/search/{id}, body = filters', async () => {
    const viaAlias = await search({ path: 'search', query: 'main', body: { building: { bedrooms: 2 } } });
    const direct = await search({ query: 'main', body: { filters: { building: { bedrooms: 2 } } } });
    expect(viaAlias.statusCode).toBe(200);
    expect(viaAlias.json()).toEqual(direct.json());
    expect(sorted(direct.json().SearchProperties.map((p: { Account: string }) => p.Account))).toEqual([
      '2',
      '8',
      '9',
      '10',
    ]);
    const wrapped = await search({ path: 'search', body: { filters: { land: { type: ['Woodland'] } } } });
    expect(wrapped.json().SearchProperties.map((p: { Account: string }) => p.Account)).toEqual(['4']);
  });

  it('answers a town with no published roll with an empty result', async () => {
    const res = await search({ clientId: emptyTownId, query: 'smith' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ SearchProperties: [], TotalRecords: 0, Pages: 0, LastUpdated: null });
  });
});

describe('query semantics', () => {
  it('needs every word to start a word of the owners, address, map/lot, account or book/page', async () => {
    expect(await found('smith')).toEqual(['1', '4', '8']);
    expect(await found('smith main')).toEqual(['8']);
    expect(await found('MAIN smith')).toEqual(['8']);
    expect(await found('12 elm')).toEqual(['1']);
    expect(await found('elm')).toEqual(['1', '5']);
    expect(await found('mary')).toEqual(['1']); // the second owner counts too
    expect(await found('oak ave')).toEqual(['4']);
    expect(await found('2b')).toEqual(['3']); // apartment
    expect(await found('1234')).toEqual(['1']); // book
    // Street numbers 10 and 100, map/lot words 10 (2-10, 10-1) and 100 (R03-100), account 10.
    expect(await found('10')).toEqual(['3', '4', '5', '6', '9', '10']);
    expect(await found('ith')).toEqual([]); // a prefix, not a substring
    expect(await found('smith oak main')).toEqual([]);
  });

  it('ignores case and accents', async () => {
    expect(await found('jose alvarez')).toEqual(['3']);
    expect(await found('JOSÉ Álvarez')).toEqual(['3']);
    expect(await found('emile')).toEqual(['9']);
    expect(await found('Émile DuPont')).toEqual(['9']);
  });

  it('matches punctuated names and map/lots with the punctuation typed or left out', async () => {
    expect(await found("O'BRIEN")).toEqual(['2']);
    expect(await found('obrien')).toEqual(['2']);
    expect(await found('brien')).toEqual(['2']);
    expect(await found('R01-002-A')).toEqual(['1']);
    expect(await found('r01002a')).toEqual(['1']);
    expect(await found('r01.002.a')).toEqual(['1']);
    expect(await found('R01-002')).toEqual(['1', '8']);
    expect(await found('1234-56')).toEqual(['1']); // book-page
  });

  it('reads `R01-0` as map/lots starting R01-0, not R010-…', async () => {
    expect(await found('R01-0')).toEqual(['1', '2', '8']);
    // Without punctuation the word is a plain prefix, so R010-005 (r010005) matches too.
    expect(await found('r010')).toEqual(['1', '2', '4', '8']);
    expect(await found('2-1')).toEqual(['5']);
  });

  it('treats SQL and regex characters as text, and refuses a query with no letter or digit', async () => {
    expect(await found("smith'; drop table properties; --")).toEqual([]);
    expect(await found('smith%')).toEqual(['1', '4', '8']);
    expect(await found('(smith) | main')).toEqual(['8']);
    expect(await found('sm* & !main')).toEqual(['8']); // the words sm and main
    for (const query of ['%', '.*', "'; --", '|&!:*()']) await expect400({ query }, 'query');
    expect((await search({ query: '   ' })).json().TotalRecords).toBe(10);
  });
});

describe('filters', () => {
  it('sale price range, inclusive, on the last sale', async () => {
    expect(await filtered({ sale: { price: { start: 150000, end: 250000 } } })).toEqual([
      '1',
      '2',
      '5',
      '9',
      '10',
    ]);
    expect(await filtered({ sale: { price: { start: 400000 } } })).toEqual(['3', '8']);
    expect(await filtered({ sale: { price: { start: '', end: 150000 } } })).toEqual(['2', '7']);
    expect(await filtered({ sale: { price: { start: '200,000', end: ' 260000 ' } } })).toEqual(['1', '5']);
  });

  it('sale date range, inclusive, on the last sale', async () => {
    expect(await filtered({ sale: { date: { start: '2021-01-01', end: '2021-12-31' } } })).toEqual([
      '1',
      '5',
    ]);
    expect(await filtered({ sale: { date: { start: '2021-06-15', end: '2021-06-15' } } })).toEqual([
      '1',
      '5',
    ]);
    expect(await filtered({ sale: { date: { start: '2020-01-10T05:00:00.000Z' } } })).toEqual([
      '1',
      '3',
      '5',
      '8',
    ]);
    expect(await filtered({ sale: { date: { end: '2017-09-09' } } })).toEqual(['7', '9', '10']);
  });

  it('land area in acres on total acres, from free text', async () => {
    expect(await filtered({ land: { area: { start: '1.5', end: ' 2 ' } } })).toEqual(['1', '5', '8', '9']);
    expect(await filtered({ land: { area: { start: '1,000' } } })).toEqual([]);
    expect(await filtered({ land: { area: { end: '0.5' } } })).toEqual(['2', '3', '7', '10']);
  });

  it('land type: any land line of one of the types', async () => {
    expect(await filtered({ land: { type: ['Waterfront'] } })).toEqual(['2']);
    expect(await filtered({ land: { type: ['Woodland', 'Commercial'] } })).toEqual(['3', '4', '8']);
  });

  it('building area on residential living area, and building style', async () => {
    expect(await filtered({ building: { area: { start: '1600', end: '2,000' } } })).toEqual([
      '1',
      '5',
      '9',
      '10',
    ]);
    expect(await filtered({ building: { style: ['Cape'] } })).toEqual(['2', '7']);
    expect(await filtered({ building: { style: ['Ranch', 'Colonial'] } })).toEqual([
      '1',
      '5',
      '8',
      '9',
      '10',
    ]);
  });

  it('bedrooms and bathrooms: at least that many, half baths counting one half', async () => {
    expect(await filtered({ building: { bedrooms: 3 } })).toEqual(['1', '5', '8']);
    expect(await filtered({ building: { bathrooms: 2 } })).toEqual(['1', '8', '10']);
    expect(await filtered({ building: { bathrooms: 1.5 } })).toEqual(['1', '5', '8', '9', '10']);
    expect(await filtered({ building: { bedrooms: '4' } })).toEqual(['8']);
  });

  it('ownership: residential and/or commercial buildings (both listed: either)', async () => {
    expect(await filtered({ building: { ownership: ['residential'] } })).toEqual([
      '1',
      '2',
      '5',
      '7',
      '8',
      '9',
      '10',
    ]);
    expect(await filtered({ building: { ownership: ['commercial'] } })).toEqual(['3', '8']);
    expect(await filtered({ building: { ownership: ['commercial', 'residential'] } })).toEqual([
      '1',
      '2',
      '3',
      '5',
      '7',
      '8',
      '9',
      '10',
    ]);
  });

  it('combines with each other and with the query', async () => {
    expect(await found('main', { filters: { building: { ownership: ['residential'] } } })).toEqual([
      '2',
      '7',
      '8',
      '9',
      '10',
    ]);
    expect(
      await filtered({
        sale: { price: { start: 100000 } },
        land: { type: ['Residential'] },
        building: { bedrooms: 2, bathrooms: 1.5 },
      }),
    ).toEqual(['1', '5', '8', '9', '10']);
  });

  it('reads empty strings, nulls, empty lists and the web form zeros as "no filter"', async () => {
    const everything = sorted(ALL_ACCOUNTS);
    expect(
      await filtered({
        sale: { price: { start: '', end: null }, date: { start: '', end: '' } },
        land: { area: { start: '', end: '' }, type: [] },
        building: { area: { start: '' }, style: [], bedrooms: '', bathrooms: null, ownership: [] },
      }),
    ).toEqual(everything);
    expect(
      await filtered({
        sale: { price: { start: 0, end: 0 } },
        land: { area: { start: 0 } },
        building: { bedrooms: 0 },
      }),
    ).toEqual(everything);
    expect(await accounts({ body: { filters: '', sort: null } })).toHaveLength(10);
  });
});

describe('sorting', () => {
  const cases: Array<[string, string[], string[]]> = [
    [
      'MapLot',
      ['5', '6', '1', '8', '2', '3', '10', '9', '4', '7'],
      ['4', '9', '10', '3', '2', '8', '1', '6', '5', '7'],
    ],
    [
      'Name',
      ['6', '5', '9', '3', '2', '1', '8', '4', '10', '7'],
      ['10', '4', '1', '8', '2', '3', '9', '5', '6', '7'],
    ],
    [
      'Location',
      ['1', '5', '7', '2', '9', '10', '3', '8', '4', '6'],
      ['4', '8', '3', '10', '9', '2', '7', '5', '1', '6'],
    ],
    [
      'BuildingLand',
      ['4', '7', '2', '9', '10', '1', '5', '8', '3', '6'],
      ['3', '8', '5', '1', '2', '9', '10', '7', '4', '6'],
    ],
    [
      'Acres',
      ['3', '2', '7', '10', '1', '5', '8', '9', '4', '6'],
      ['4', '9', '1', '5', '8', '2', '7', '10', '3', '6'],
    ],
    [
      'SaleDate',
      ['7', '9', '10', '2', '3', '1', '5', '8', '4', '6'],
      ['8', '1', '5', '3', '2', '9', '10', '7', '4', '6'],
    ],
    [
      'SalePrice',
      ['7', '2', '9', '10', '1', '5', '8', '3', '4', '6'],
      ['3', '8', '1', '5', '9', '10', '2', '7', '4', '6'],
    ],
  ];

  for (const [column, ascending, descending] of cases) {
    it(`${column}: natural order, empty values last both ways, ties by account`, async () => {
      expect(await accounts({ body: { sort: { sortby: column, descending: false } } })).toEqual(ascending);
      expect(await accounts({ body: { sort: { sortby: column, descending: true } } })).toEqual(descending);
    });

    it(`${column}: pages of 3 put together give the same order (no overlap, no gap)`, async () => {
      for (const descendingSort of [false, true]) {
        const body = { sort: { sortby: column, descending: descendingSort } };
        const pages: string[] = [];
        for (let page = 1; page <= 4; page++) pages.push(...(await accounts({ body, page, pagesize: 3 })));
        expect(pages).toEqual(descendingSort ? descending : ascending);
      }
    });
  }

  it('a list of sorts applies in priority order', async () => {
    const body = {
      sort: [
        { sortby: 'Acres', descending: false },
        { sortby: 'Name', descending: true },
      ],
    };
    expect(await accounts({ body })).toEqual(['3', '10', '2', '7', '1', '8', '5', '9', '4', '6']);
  });

  it('descending defaults to false, and a sort with an empty sortby means no sort', async () => {
    expect(await accounts({ body: { sort: { sortby: 'Acres' } } })).toEqual(cases[4]![1]);
    expect(await accounts({ body: { sort: { sortby: '', descending: false } } })).toEqual(cases[1]![1]);
  });

  it('sorts within a query and filter', async () => {
    expect(
      await accounts({ query: 'main', body: { sort: { sortby: 'Location', descending: false } } }),
    ).toEqual(['7', '2', '9', '10', '3', '8']);
  });
});

describe('paging', () => {
  it('counts pages as ceil(TotalRecords / PageSize)', async () => {
    const body = (await search({ pagesize: 3 })).json() as SearchResponse;
    expect(body).toMatchObject({ PageSize: 3, PageNumber: 1, Pages: 4, TotalRecords: 10 });
    expect(body.SearchProperties).toHaveLength(3);
    const last = (await search({ pagesize: 3, page: 4 })).json() as SearchResponse;
    expect(last.SearchProperties.map((p) => p.Account)).toEqual(['7']);
    const exact = (await search({ pagesize: 5, page: 2 })).json() as SearchResponse;
    expect(exact).toMatchObject({ Pages: 2, TotalRecords: 10 });
    expect(exact.SearchProperties).toHaveLength(5);
  });

  it('a page past the end is an empty list with the right totals', async () => {
    for (const query of [undefined, 'main']) {
      const res = await search({ query, page: 99, pagesize: 3 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        SearchProperties: [],
        PageNumber: 99,
        PageSize: 3,
        TotalRecords: query ? 6 : 10,
        Pages: query ? 2 : 4,
      });
    }
    const none = (await search({ query: 'nobody' })).json() as SearchResponse;
    expect(none).toMatchObject({ SearchProperties: [], TotalRecords: 0, Pages: 0, PageNumber: 1 });
  });

  it('accepts pagesize up to 500', async () => {
    expect((await search({ pagesize: 500 })).json().PageSize).toBe(500);
  });
});

describe('bad input: 400 naming the field, nothing else', () => {
  it('refuses bad page and pagesize values', async () => {
    for (const page of ['0', '-1', '1.5', 'abc', '1e309', '99999999999', 'Infinity'])
      await expect400({ page }, 'page');
    for (const pagesize of ['0', '501', '-5', '1e3', 'NaN']) await expect400({ pagesize }, 'pagesize');
  });

  it('refuses an over-long query', async () => {
    await expect400({ query: 'a'.repeat(201) }, 'query');
    expect((await search({ query: 'a'.repeat(200) })).statusCode).toBe(200);
  });

  it('refuses a query with too many words', async () => {
    await expect400({ query: 'a1 b2 c3 d4 e5 f6 g7 h8 i9 j10 k11 l12 m13' }, 'query');
  });

  it('refuses unknown sort columns and wrong sort types', async () => {
    await expect400({ body: { sort: { sortby: 'Owner' } } }, 'sort.0.sortby');
    await expect400({ body: { sort: [{ sortby: 'Name' }, { sortby: 'DROP TABLE' }] } }, 'sort.1.sortby');
    await expect400({ body: { sort: { sortby: 'Name', descending: 'yes' } } }, 'sort.0.descending');
  });

  it('refuses wrong types, negative and huge numbers in filters', async () => {
    await expect400({ body: { filters: { sale: { price: { start: -1 } } } } }, 'filters.sale.price.start');
    await expect400({ body: '{"filters":{"sale":{"price":{"end":1e309}}}}' }, 'filters.sale.price.end');
    await expect400({ body: '{"filters":{"building":{"bedrooms":-1e309}}}' }, 'filters.building.bedrooms');
    await expect400({ body: { filters: { sale: { price: { end: '1e309' } } } } }, 'filters.sale.price.end');
    await expect400({ body: { filters: { sale: { price: { end: 1e13 } } } } }, 'filters.sale.price.end');
    await expect400(
      { body: { filters: { land: { area: { start: 'two acres' } } } } },
      'filters.land.area.start',
    );
    await expect400(
      { body: { filters: { building: { area: { end: '1.2.3' } } } } },
      'filters.building.area.end',
    );
    await expect400({ body: { filters: { building: { bedrooms: 'many' } } } }, 'filters.building.bedrooms');
    await expect400({ body: { filters: { building: { bathrooms: -2 } } } }, 'filters.building.bathrooms');
    await expect400(
      { body: { filters: { building: { ownership: ['industrial'] } } } },
      'filters.building.ownership.0',
    );
    await expect400({ body: { filters: { land: { type: 'Woodland' } } } }, 'filters.land.type');
    await expect400({ body: { filters: { land: { type: ['x'.repeat(201)] } } } }, 'filters.land.type.0');
    await expect400(
      { body: { filters: { sale: { date: { start: '2021-02-30' } } } } },
      'filters.sale.date.start',
    );
    await expect400({ body: { filters: { sale: { date: { end: 'yesterday' } } } } }, 'filters.sale.date.end');
    await expect400({ body: { filters: 42 } }, 'filters');
  });

  it('refuses a range whose start is past its end', async () => {
    await expect400({ body: { filters: { sale: { price: { start: 5, end: 1 } } } } }, 'filters.sale.price');
    await expect400({ body: { filters: { land: { area: { start: '3', end: '1' } } } } }, 'filters.land.area');
    await expect400(
      { body: { filters: { sale: { date: { start: '2022-01-01', end: '2021-01-01' } } } } },
      'filters.sale.date',
    );
  });

  it('refuses malformed JSON and non-object bodies', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/propertysearch/${townId}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"filters": {',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'bad_request' });
    const list = await search({ body: [1, 2] });
    expect(list.statusCode).toBe(400);
  });

  it('refuses bad client ids and answers 404 for unknown ones', async () => {
    for (const id of ['0', '-1', 'abc', '1e309', '99999999999']) {
      const res = await ctx.app.inject({ method: 'POST', url: `/api/propertysearch/${id}` });
      expect(res.statusCode, id).toBe(400);
      expect(res.json().fields[0].field).toBe('clientId');
    }
    const res = await search({ clientId: 999_999 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('API docs', () => {
  it('documents every public call and the search semantics at /api/openapi.json', async () => {
    const res = await ctx.app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.info.description).toContain('## Search semantics');
    expect(doc.info.description).toContain('R01-0');
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/api/states',
      '/api/{state}/cities',
      '/api/client/{state}/{city}',
      '/api/client/{id}',
      '/api/landbuilding/{clientId}',
      '/api/propertysearch/{clientId}',
      '/api/search/{id}',
      '/api/propertysearch/{clientId}/export.csv',
      '/api/suggest/{clientId}',
      '/api/fullproperty/{account}',
    ])
      expect(paths).toContain(path);
    const searchOp = doc.paths['/api/propertysearch/{clientId}'].post;
    expect(Object.keys(searchOp.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
    expect(searchOp.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['clientId', 'query', 'page', 'pagesize']),
    );
    expect((await ctx.app.inject('/api/docs')).statusCode).toBeLessThan(400);
  });
});
