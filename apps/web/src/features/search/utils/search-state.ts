import type { SearchBody, SearchFilters, SortColumn } from '@opp/contracts';
import { loadWithExpiry, saveWithExpiry } from '@/utils/expiring-storage';
import { readNumber } from './filter-input';

/*
 * The whole state of a search (query, filters, sort, page, view). It lives in the URL so a search can be
 * bookmarked, shared and walked with Back/Forward; it is also saved per state and city in browser storage
 * (spec §4) so a bare /{state}/{city}/search comes back as the visitor left it.
 */

export const PAGE_SIZE = 50;

/** Spec §2 column order. Values are the API's sort names. */
export const SORT_OPTIONS: readonly { column: SortColumn; label: string }[] = [
  { column: 'MapLot', label: 'Map/Lot' },
  { column: 'Name', label: 'Name' },
  { column: 'Location', label: 'Location' },
  { column: 'BuildingLand', label: 'Building + Land' },
  { column: 'Acres', label: 'Acres' },
  { column: 'SaleDate', label: 'Last Sale Date' },
  { column: 'SalePrice', label: 'Last Sale Price' },
];
/** Year built: a column of the results only where they have a year (result-fields.tsx), always a sort. */
export const YEAR_BUILT_SORT: { column: SortColumn; label: string } = {
  column: 'YearBuilt',
  label: 'Year Built',
};
/** Every sort a visitor can choose: the columns, then those whose column the results may leave out. */
export const SORT_CHOICES: readonly { column: SortColumn; label: string }[] = [
  ...SORT_OPTIONS,
  YEAR_BUILT_SORT,
];
const SORT_NAMES = new Set<string>(SORT_CHOICES.map((o) => o.column));

export type Ownership = 'commercial' | 'residential';
export const VIEW_STYLES = ['list', 'grid', 'map'] as const;
export type ViewStyle = (typeof VIEW_STYLES)[number];
const viewStyle = (v: unknown): ViewStyle => VIEW_STYLES.find((s) => s === v) ?? 'list';

/** The advanced-search form as typed (text), so half-typed values survive a round trip. */
export interface FilterForm {
  salePriceMin: string;
  salePriceMax: string;
  saleDateFrom: string;
  saleDateTo: string;
  landAreaMin: string;
  landAreaMax: string;
  landTypes: string[];
  buildingAreaMin: string;
  buildingAreaMax: string;
  buildingStyles: string[];
  bedrooms: string;
  bathrooms: string;
  ownership: Ownership[];
  yearBuiltMin: string;
  yearBuiltMax: string;
}

export interface SortState {
  sortby: SortColumn;
  descending: boolean;
}

export interface SearchState {
  query: string;
  filters: FilterForm;
  sort: SortState;
  page: number;
  view: ViewStyle;
}

export const EMPTY_FILTERS: FilterForm = {
  salePriceMin: '',
  salePriceMax: '',
  saleDateFrom: '',
  saleDateTo: '',
  landAreaMin: '',
  landAreaMax: '',
  landTypes: [],
  buildingAreaMin: '',
  buildingAreaMax: '',
  buildingStyles: [],
  bedrooms: '',
  bathrooms: '',
  ownership: [],
  yearBuiltMin: '',
  yearBuiltMax: '',
};

/** Spec §4: clear filters → Name ascending; also the first visit's order. */
export const DEFAULT_SORT: SortState = { sortby: 'Name', descending: false };

export const DEFAULT_SEARCH: SearchState = {
  query: '',
  filters: EMPTY_FILTERS,
  sort: DEFAULT_SORT,
  page: 1,
  view: 'list',
};

/** Spec §4: a column click sorts it ascending; the same column again toggles; others reset. */
export function nextSort(current: SortState, column: SortColumn): SortState {
  return current.sortby === column
    ? { sortby: column, descending: !current.descending }
    : { sortby: column, descending: false };
}

export function activeFilterCount(f: FilterForm): number {
  const scalars: (keyof FilterForm)[] = [
    'salePriceMin',
    'salePriceMax',
    'saleDateFrom',
    'saleDateTo',
    'landAreaMin',
    'landAreaMax',
    'buildingAreaMin',
    'buildingAreaMax',
    'bedrooms',
    'bathrooms',
    'yearBuiltMin',
    'yearBuiltMax',
  ];
  return (
    scalars.filter((k) => String(f[k]).trim() !== '').length +
    f.landTypes.length +
    f.buildingStyles.length +
    f.ownership.length
  );
}

// ---- URL -------------------------------------------------------------------------------------------

/** Short, readable query-string names for each filter field. */
const FILTER_PARAMS: [keyof FilterForm, string][] = [
  ['salePriceMin', 'priceMin'],
  ['salePriceMax', 'priceMax'],
  ['saleDateFrom', 'saleFrom'],
  ['saleDateTo', 'saleTo'],
  ['landAreaMin', 'landMin'],
  ['landAreaMax', 'landMax'],
  ['buildingAreaMin', 'bldgMin'],
  ['buildingAreaMax', 'bldgMax'],
  ['bedrooms', 'beds'],
  ['bathrooms', 'baths'],
  ['yearBuiltMin', 'builtFrom'],
  ['yearBuiltMax', 'builtTo'],
];
const LIST_PARAMS: [keyof FilterForm, string][] = [
  ['landTypes', 'landType'],
  ['buildingStyles', 'style'],
  ['ownership', 'own'],
];

/** Only what differs from the defaults goes into the URL, so a plain search has a short link. */
export function searchToParams(s: SearchState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.query.trim()) p.set('q', s.query.trim());
  for (const [key, name] of FILTER_PARAMS) {
    const v = String(s.filters[key]).trim();
    if (v) p.set(name, v);
  }
  for (const [key, name] of LIST_PARAMS) for (const v of s.filters[key] as string[]) p.append(name, v);
  if (s.sort.sortby !== DEFAULT_SORT.sortby || s.sort.descending !== DEFAULT_SORT.descending) {
    p.set('sort', s.sort.sortby);
    if (s.sort.descending) p.set('desc', '1');
  }
  if (s.page > 1) p.set('page', String(s.page));
  if (s.view !== 'list') p.set('view', s.view);
  return p;
}

/** True when the URL names any part of a search (then it wins over stored state). */
export function hasSearchParams(p: URLSearchParams): boolean {
  const names = new Set(['q', 'sort', 'desc', 'page', 'view', ...FILTER_PARAMS.map(([, n]) => n)]);
  for (const [, n] of LIST_PARAMS) names.add(n);
  for (const k of p.keys()) if (names.has(k)) return true;
  return false;
}

export function paramsToSearch(p: URLSearchParams): SearchState {
  const filters: FilterForm = { ...EMPTY_FILTERS };
  for (const [key, name] of FILTER_PARAMS) {
    const v = p.get(name);
    if (v !== null) (filters[key] as string) = v.slice(0, 100);
  }
  filters.landTypes = p.getAll('landType').slice(0, 100);
  filters.buildingStyles = p.getAll('style').slice(0, 100);
  filters.ownership = p
    .getAll('own')
    .filter((v): v is Ownership => v === 'commercial' || v === 'residential');
  const sortby = p.get('sort');
  const page = Number(p.get('page'));
  return {
    query: (p.get('q') ?? '').slice(0, 200),
    filters,
    sort:
      sortby && SORT_NAMES.has(sortby)
        ? { sortby: sortby as SortColumn, descending: p.get('desc') === '1' }
        : DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    view: viewStyle(p.get('view')),
  };
}

// ---- API -------------------------------------------------------------------------------------------

const num = (v: string): number | undefined => readNumber(v) ?? undefined;
const text = (v: string): string | undefined => (v.trim() ? v.trim() : undefined);
/**
 * Areas are free text (spec §5): a number goes as a number; anything else goes as typed, so the server
 * names the field it cannot read instead of the filter being dropped without a word.
 */
const area = (v: string): number | string | undefined => num(v) ?? text(v);

/** Only the parts that are set; an all-empty form sends no filters at all. */
export function toApiFilters(f: FilterForm): SearchFilters | undefined {
  const sale = {
    price: range(num(f.salePriceMin), num(f.salePriceMax)),
    date: range(text(f.saleDateFrom), text(f.saleDateTo)),
  };
  const land = {
    area: range(area(f.landAreaMin), area(f.landAreaMax)),
    type: f.landTypes.length ? f.landTypes : undefined,
  };
  const building = {
    area: range(area(f.buildingAreaMin), area(f.buildingAreaMax)),
    style: f.buildingStyles.length ? f.buildingStyles : undefined,
    bedrooms: num(f.bedrooms),
    bathrooms: num(f.bathrooms),
    ownership: f.ownership.length ? f.ownership : undefined,
    yearBuilt: range(num(f.yearBuiltMin), num(f.yearBuiltMax)),
  };
  const out: SearchFilters = {};
  if (defined(sale)) out.sale = compact(sale);
  if (defined(land)) out.land = compact(land);
  if (defined(building)) out.building = compact(building);
  return Object.keys(out).length ? out : undefined;
}

function range<T>(start: T | undefined, end: T | undefined): { start?: T; end?: T } | undefined {
  if (start === undefined && end === undefined) return undefined;
  return compact({ start, end });
}
function defined(o: object): boolean {
  return Object.values(o).some((v) => v !== undefined);
}
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function toSearchBody(s: SearchState): SearchBody {
  const filters = toApiFilters(s.filters);
  return { ...(filters ? { filters } : {}), sort: { sortby: s.sort.sortby, descending: s.sort.descending } };
}

// ---- Browser storage (spec §3, §4) -----------------------------------------------------------------

const placeKey = (state: string, city: string) =>
  `${state.trim().toLowerCase()}/${city.trim().replace(/\s+/g, ' ').toLowerCase()}`;
export const searchStorageKey = (state: string, city: string) => `opp.search:${placeKey(state, city)}`;
export const resultsStorageKey = (state: string, city: string) => `opp.results:${placeKey(state, city)}`;

export function saveSearchState(state: string, city: string, s: SearchState, now = Date.now()): void {
  saveWithExpiry(searchStorageKey(state, city), s, now);
}

/**
 * The stored search, if unexpired (an expired one is deleted). Spec §4: zero in land area, sale price,
 * bedrooms and bathrooms comes back empty (the original stored 0 for "not set"). Anything malformed is
 * replaced by its default, so a stored value from an older version can never break the page.
 */
export function loadSearchState(state: string, city: string, now = Date.now()): SearchState | null {
  const raw = loadWithExpiry<Partial<SearchState>>(searchStorageKey(state, city), now);
  if (!raw || typeof raw !== 'object') return null;
  const f: Partial<Record<keyof FilterForm, unknown>> =
    raw.filters && typeof raw.filters === 'object' ? raw.filters : {};
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  const zeroIsEmpty = (v: unknown) => {
    const s = str(v).trim();
    return s !== '' && Number(s) === 0 ? '' : s;
  };
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const filters: FilterForm = {
    salePriceMin: zeroIsEmpty(f.salePriceMin),
    salePriceMax: zeroIsEmpty(f.salePriceMax),
    saleDateFrom: str(f.saleDateFrom),
    saleDateTo: str(f.saleDateTo),
    landAreaMin: zeroIsEmpty(f.landAreaMin),
    landAreaMax: zeroIsEmpty(f.landAreaMax),
    landTypes: list(f.landTypes),
    buildingAreaMin: str(f.buildingAreaMin),
    buildingAreaMax: str(f.buildingAreaMax),
    buildingStyles: list(f.buildingStyles),
    bedrooms: zeroIsEmpty(f.bedrooms),
    bathrooms: zeroIsEmpty(f.bathrooms),
    ownership: list(f.ownership).filter((v): v is Ownership => v === 'commercial' || v === 'residential'),
    yearBuiltMin: str(f.yearBuiltMin),
    yearBuiltMax: str(f.yearBuiltMax),
  };
  const sort =
    raw.sort && typeof raw.sort === 'object' && SORT_NAMES.has(String(raw.sort.sortby))
      ? { sortby: raw.sort.sortby, descending: raw.sort.descending === true }
      : DEFAULT_SORT;
  return {
    query: typeof raw.query === 'string' ? raw.query : '',
    filters,
    sort,
    page: typeof raw.page === 'number' && Number.isInteger(raw.page) && raw.page >= 1 ? raw.page : 1,
    view: viewStyle(raw.view),
  };
}
