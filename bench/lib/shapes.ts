import type { SearchFilters, SortColumn, SortSpec } from '@opp/contracts';
import { SORT_COLUMNS } from '@opp/contracts';
import { clientLayout, generateRecord, type DatasetSpec } from './generator.ts';
import { Rng } from './prng.ts';

/*
 * The query shapes of the benchmark, each a request against the county-sized client. Text shapes draw
 * their words from real records of the data set (an owner's full name, an address that exists), several
 * variants per shape, so a shape measures the index, not one cached page.
 */

export type ShapeKind = 'search' | 'record' | 'suggest' | 'export';

export interface SearchParams {
  query: string;
  page: number;
  filters?: SearchFilters;
  sort?: SortSpec;
}

export interface Shape {
  id: string;
  label: string;
  kind: ShapeKind;
  /** The variants the measurement cycles through. */
  variants: SearchParams[] | string[];
  /** Target p95 in ms (export: total time of one request). */
  targetMs: number;
}

export interface QueryTerms {
  ownerNames: string[];
  addresses: string[];
  mapLotPrefixes: string[];
  accounts: string[];
  suggestPrefixes: string[];
}

/** Words taken from records spread over the whole county roll. */
export function queryTerms(spec: DatasetSpec, count = 24): QueryTerms {
  const layout = clientLayout(spec.seed, spec.big);
  const rng = new Rng(`${spec.seed}:queries`);
  const ownerNames: string[] = [];
  const addresses: string[] = [];
  const mapLotPrefixes: string[] = [];
  const accounts: string[] = [];
  for (let k = 0; k < count; k++) {
    const i = rng.int(0, spec.big.parcels - 1);
    const r = generateRecord(spec.seed, layout, i);
    const owner = r.Owners?.[0]?.OwnerName;
    if (owner) ownerNames.push(owner);
    if (r.StreetNumber && r.StreetName) addresses.push(`${r.StreetNumber} ${r.StreetName}`);
    if (r.MapLot) mapLotPrefixes.push(r.MapLot.slice(0, r.MapLot.indexOf('-') + 2));
  }
  for (let k = 0; k < 400; k++) accounts.push(String(rng.int(1, spec.big.parcels)));
  return {
    ownerNames,
    addresses,
    mapLotPrefixes,
    accounts,
    suggestPrefixes: [
      'smi',
      'joh',
      'wil',
      'bro',
      'mai',
      'main st',
      'oak',
      'pel',
      'gag',
      '12 ma',
      'lib',
      'sto',
    ],
  };
}

const SEARCH_P95_MS = 25;
const one = (p: Partial<SearchParams>): SearchParams[] => [{ query: '', page: 1, ...p }];

const FILTERS: Array<[string, string, SearchFilters]> = [
  [
    'filter-sale-price',
    'filter: sale price 100k–300k',
    { sale: { price: { start: 100_000, end: 300_000 } } },
  ],
  [
    'filter-sale-date',
    'filter: sale date 2015–2020',
    { sale: { date: { start: '2015-01-01', end: '2020-12-31' } } },
  ],
  ['filter-land-area', 'filter: land area 1–5 acres', { land: { area: { start: '1', end: '5' } } }],
  ['filter-land-type', 'filter: land type WATERFRONT', { land: { type: ['WATERFRONT'] } }],
  [
    'filter-building-area',
    'filter: building area 1,500–2,500',
    { building: { area: { start: '1500', end: '2500' } } },
  ],
  ['filter-building-style', 'filter: style CAPE', { building: { style: ['CAPE'] } }],
  ['filter-bedrooms', 'filter: bedrooms ≥ 4', { building: { bedrooms: 4 } }],
  ['filter-bathrooms', 'filter: bathrooms ≥ 3', { building: { bathrooms: 3 } }],
  ['filter-ownership', 'filter: commercial', { building: { ownership: ['commercial'] } }],
];

export function buildShapes(terms: QueryTerms): Shape[] {
  const shapes: Shape[] = [
    {
      id: 'empty-default',
      label: 'empty query, default order',
      kind: 'search',
      variants: one({}),
      targetMs: SEARCH_P95_MS,
    },
  ];
  for (const column of SORT_COLUMNS as readonly SortColumn[])
    for (const descending of [false, true])
      shapes.push({
        id: `sort-${column}-${descending ? 'desc' : 'asc'}`,
        label: `sort ${column} ${descending ? 'descending' : 'ascending'}`,
        kind: 'search',
        variants: one({ sort: { sortby: column, descending } }),
        targetMs: SEARCH_P95_MS,
      });
  shapes.push(
    {
      id: 'owner-prefix',
      label: 'owner prefix "smi"',
      kind: 'search',
      variants: one({ query: 'smi' }),
      targetMs: SEARCH_P95_MS,
    },
    {
      id: 'owner-full',
      label: 'full owner name',
      kind: 'search',
      variants: terms.ownerNames.map((query) => ({ query, page: 1 })),
      targetMs: SEARCH_P95_MS,
    },
    {
      id: 'street',
      label: 'street "main st"',
      kind: 'search',
      variants: one({ query: 'main st' }),
      targetMs: SEARCH_P95_MS,
    },
    {
      id: 'number-street',
      label: 'number and street',
      kind: 'search',
      variants: terms.addresses.map((query) => ({ query, page: 1 })),
      targetMs: SEARCH_P95_MS,
    },
    {
      id: 'maplot-prefix',
      label: 'map/lot prefix',
      kind: 'search',
      variants: terms.mapLotPrefixes.map((query) => ({ query, page: 1 })),
      targetMs: SEARCH_P95_MS,
    },
  );
  for (const [id, label, filters] of FILTERS)
    shapes.push({ id, label, kind: 'search', variants: one({ filters }), targetMs: SEARCH_P95_MS });
  shapes.push(
    {
      id: 'three-filters',
      label: 'three filters (price, style, bedrooms)',
      kind: 'search',
      variants: one({
        filters: {
          sale: { price: { start: 150_000, end: 400_000 } },
          building: { style: ['CAPE', 'COLONIAL'], bedrooms: 3 },
        },
      }),
      targetMs: SEARCH_P95_MS,
    },
    // The page number is filled in once the total is known (see resolveLastPage).
    {
      id: 'last-page',
      label: 'last page',
      kind: 'search',
      variants: one({ page: -1 }),
      targetMs: SEARCH_P95_MS,
    },
    { id: 'record', label: 'full-record read', kind: 'record', variants: terms.accounts, targetMs: 5 },
    { id: 'suggest', label: 'suggest', kind: 'suggest', variants: terms.suggestPrefixes, targetMs: 15 },
    {
      id: 'export-csv',
      label: 'CSV export, 50,000 rows (total)',
      kind: 'export',
      variants: [''],
      targetMs: 2000,
    },
  );
  return shapes;
}

/** Path and body of a search request. */
export function searchRequest(clientId: number, p: SearchParams, pageSize = 50) {
  const qs = new URLSearchParams({ query: p.query, page: String(p.page), pagesize: String(pageSize) });
  return {
    path: `/api/propertysearch/${clientId}?${qs}`,
    body: { filters: p.filters ?? {}, ...(p.sort ? { sort: p.sort } : {}) },
  };
}

export function recordPath(account: string, city: string, state: string) {
  return `/api/fullproperty/${encodeURIComponent(account)}?${new URLSearchParams({ city, state })}`;
}

export function suggestPath(clientId: number, q: string) {
  return `/api/suggest/${clientId}?${new URLSearchParams({ q })}`;
}

export function exportPath(clientId: number) {
  return `/api/propertysearch/${clientId}/export.csv`;
}
