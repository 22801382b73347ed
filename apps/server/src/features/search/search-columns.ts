import type {
  PropertyRecord,
  PropertySummary,
  Residence,
  Sale,
  SearchResult,
  SortColumn,
} from '@opp/contracts';
import {
  COPY_NULL,
  copyBoolean,
  copyJson,
  copyNumber,
  copyText,
  copyTextArray,
  copyTsvector,
  readCopyText,
  readTextArray,
} from '../../db/copy-text.ts';
import { searchableOwners } from '../properties/owner-privacy.ts';
import { codeKey, indexTerms, naturalKey } from '../properties/search-text.ts';
import { generated, keyLiteral } from '../../lib/generated-code.ts';

/*
 * The search row: one entry per column of `properties` that an import writes (everything but roll_id,
 * client_id and the pre-0009 `record`). Each entry says
 *   - its SQL name and type (db/schema.ts declares them through search-columns.schema.ts, and
 *     search-columns.test.ts holds them to the migrated database: a migration and this list cannot
 *     disagree),
 *   - how the importer computes it from a checked record, and writes it in COPY's text format (its place
 *     in this list is its place in the COPY line),
 *   - how the in-process roll index reads it (the select expression and the COPY text it comes back as)
 *     and what it keeps of it (`index`),
 *   - the public sort it serves (`sort`) and the search filter it answers (`filter`): both the SQL path
 *     (search.repository.ts) and the roll index (roll-index.ts) build their conditions from these,
 *   - the field of a search result it fills beside the stored summary (`result`): both paths read results
 *     through RESULT_SELECT and searchResultOf.
 * Adding a filterable, sortable column is one entry here, its migration, its contract field and a test
 * (docs/ARCHITECTURE.md, "Adding a filterable, sortable column").
 */

/** What every column's value is computed from: the record, and what several columns share. */
export interface RecordFacts {
  record: PropertyRecord;
  /** The most recent sale (by date; undated sales count as oldest), or null. */
  sale: Sale | null;
  residences: Residence[];
  /** The search result's summary (properties/property-row.ts owns its shape). */
  summary: PropertySummary;
  /** The parcel's search words (recordWords), made once for the two columns that hold them. */
  words?: RecordWords;
}

/**
 * How the roll index keeps a column:
 * - `account`, `accountKey`: the row's identity and the tie-break of every sort;
 * - `text`: a sort key (dense ranks in collate "C" order);
 * - `number`, `day` (a date, as whole days): a number per row (NaN for null), ranked for a sort and kept
 *   in ascending order for a range filter;
 * - `flag`: a bit per row, with the rows holding it;
 * - `values`: a list of strings per row (dictionary ids), with the rows holding each value;
 * - `numbers`: a list of numbers per row, with every (value, row) in ascending order of value;
 * - `words`: the lexemes of the word vector (postings); `codes`: the punctuated codes, checked as prefixes.
 */
export type IndexKind =
  'account' | 'accountKey' | 'text' | 'number' | 'day' | 'flag' | 'values' | 'numbers' | 'words' | 'codes';

/** The criterion of SearchCriteria a column answers, and how. */
export type FilterSpec =
  /** `{ min?, max? }`: the value lies in the range. */
  | { criterion: 'salePrice' | 'acres' | 'livingArea'; test: 'range' }
  /** `{ from?, to? }` (YYYY-MM-DD): the date lies in the range. */
  | { criterion: 'saleDate'; test: 'dateRange' }
  /** A number: the value is at least that. */
  | { criterion: 'minBedrooms' | 'minBathrooms'; test: 'atLeast' }
  /** A list of strings: the row holds one of them. */
  | { criterion: 'landTypes' | 'buildingStyles'; test: 'anyOf' }
  /** `{ [option]: boolean }`: the row has one of the flags asked for (the columns of one criterion OR'd). */
  | { criterion: 'ownership'; test: 'flag'; option: 'residential' | 'commercial' }
  /** `{ min?, max? }`: one of the row's numbers lies in the range. */
  | { criterion: 'yearBuilt'; test: 'anyInRange' };

interface ColumnSpec<F extends string, T> {
  /** The column in `properties`. */
  name: string;
  /** Its field in the importer's row (PropertyRow) and in the index's source row. */
  field: F;
  /** Its type, as migrations declare it (search-columns.schema.ts makes it db/schema.ts's column). */
  type: SqlType;
  notNull?: true;
  /** Arrays an import always writes, declared `not null default '{}'`. */
  defaultEmpty?: true;
  value: (facts: RecordFacts) => T;
  /** The value in COPY's text format. */
  copy: (value: T) => string;
  index?: IndexKind;
  /** The select expression the index reads (default: the column). */
  read?: string;
  /** What the index reads instead for a town whose owner names are not searchable (default: read). */
  readWithoutOwnerNames?: string;
  sort?: SortColumn;
  filter?: FilterSpec;
  /** The search result's field this column fills (SearchResult beyond PropertySummary). */
  result?: ResultField;
}

/** A search result's fields read from their own columns rather than from the stored summary. */
type ResultField = Exclude<keyof SearchResult, keyof PropertySummary>;

export type SqlType =
  | 'text'
  | 'double precision'
  | 'date'
  | 'boolean'
  | 'jsonb'
  | 'tsvector'
  | 'integer'
  | 'text[]'
  | 'integer[]';

const column = <const F extends string, T>(spec: ColumnSpec<F, T>) => spec;
const MAX_WORDS = 400;

const sum = (values: Array<number | null>): number | null => {
  let total: number | null = null;
  for (const v of values) if (v != null) total = (total ?? 0) + v;
  return total;
};

const distinct = (values: string[]): string[] =>
  [...new Set(values.map((v) => v.trim()).filter(Boolean))].sort();

const copyIntArray = (values: readonly number[]) => `{${values.join(',')}}`;

/** The years the parcel's residences and commercial buildings were built, distinct, ascending. */
function buildingYears({ record }: RecordFacts): number[] {
  const years = new Set<number>();
  for (const b of record.Buildings) if (b.YearBuilt !== null) years.add(b.YearBuilt);
  for (const b of record.CommercialBuildings) if (b.YearBuilt !== null) years.add(b.YearBuilt);
  return [...years].sort((a, b) => a - b);
}

/** A parcel's search words: all of them, and those only its owners' names give. */
interface RecordWords {
  all: string[];
  ownersOnly: string[];
}

/**
 * The words of the parcel (search_doc) and those that only its owners' names give (owner_words: a town
 * whose owner names are not searchable is searched without them, owner-privacy.ts). A record whose
 * owners are suppressed gives none of theirs.
 */
function recordWords(facts: RecordFacts): RecordWords {
  if (facts.words) return facts.words;
  const r = facts.record;
  const words = new Set<string>();
  indexTerms(r.StreetNumber, words);
  indexTerms(r.Apartment, words);
  indexTerms(r.StreetName, words);
  indexTerms(r.MapLot, words);
  indexTerms(r.Account, words);
  indexTerms(r.Book, words);
  indexTerms(r.Page, words);
  if (r.Book && r.Page) indexTerms(`${r.Book}${r.Page}`, words);
  const owners = new Set<string>();
  for (const o of searchableOwners(r)) indexTerms(o.OwnerName, owners);
  const ownersOnly: string[] = [];
  for (const w of owners)
    if (!words.has(w)) {
      ownersOnly.push(w);
      words.add(w);
    }
  // Owners' words last: a record past the cap loses names before its address (the cap is far above
  // any real record's count).
  const all = [...words].slice(0, MAX_WORDS);
  facts.words = {
    all,
    ownersOnly: all.length < words.size ? ownersOnly.filter((w) => all.includes(w)) : ownersOnly,
  };
  return facts.words;
}

function codesOf({ record: r }: RecordFacts): string[] {
  const values = [
    r.MapLot,
    r.Account,
    r.StreetNumber,
    r.Apartment,
    r.Book && r.Page ? `${r.Book}-${r.Page}` : '',
  ];
  return [...new Set(values.map((v) => (v ? codeKey(v) : '')).filter(Boolean))];
}

/** The search row's columns, in COPY order (after roll_id and client_id). The account comes first. */
export const SEARCH_COLUMNS = [
  column({
    name: 'account',
    field: 'account',
    type: 'text',
    notNull: true,
    value: (f) => f.record.Account,
    copy: copyText,
    index: 'account',
  }),
  column({
    name: 'account_key',
    field: 'accountKey',
    type: 'text',
    notNull: true,
    value: (f) => naturalKey(f.record.Account) ?? f.record.Account,
    copy: copyText,
    index: 'accountKey',
  }),
  column({
    name: 'summary',
    field: 'summary',
    type: 'jsonb',
    notNull: true,
    value: (f) => f.summary,
    copy: (v) => copyJson(JSON.stringify(v)),
  }),
  column({
    name: 'map_lot_key',
    field: 'mapLotKey',
    type: 'text',
    value: (f) => naturalKey(f.record.MapLot),
    copy: copyText,
    index: 'text',
    sort: 'MapLot',
  }),
  column({
    name: 'name_key',
    field: 'nameKey',
    type: 'text',
    value: (f) => naturalKey(searchableOwners(f.record)[0]?.OwnerName),
    copy: copyText,
    index: 'text',
    sort: 'Name',
  }),
  column({
    name: 'location_key',
    field: 'locationKey',
    type: 'text',
    // Street name first, then number, then apartment: how people read an address list.
    value: ({ record: r }) => {
      const street = naturalKey(r.StreetName);
      return street
        ? `${street}\u0001${naturalKey(r.StreetNumber) ?? ''}\u0001${naturalKey(r.Apartment) ?? ''}`
        : null;
    },
    copy: copyText,
    index: 'text',
    sort: 'Location',
  }),
  column({
    name: 'building_land',
    field: 'buildingLand',
    type: 'double precision',
    value: ({ record: r }) =>
      r.TotalBuildingValue == null && r.LandValue == null
        ? null
        : (r.TotalBuildingValue ?? 0) + (r.LandValue ?? 0),
    copy: copyNumber,
    index: 'number',
    sort: 'BuildingLand',
  }),
  column({
    name: 'total_acres',
    field: 'totalAcres',
    type: 'double precision',
    value: (f) => f.record.TotalAcres,
    copy: copyNumber,
    index: 'number',
    sort: 'Acres',
    filter: { criterion: 'acres', test: 'range' },
  }),
  column({
    name: 'sale_date',
    field: 'saleDate',
    type: 'date',
    value: (f) => f.sale?.SaleDate ?? null,
    copy: copyText,
    index: 'day',
    read: 'sale_date::text',
    sort: 'SaleDate',
    filter: { criterion: 'saleDate', test: 'dateRange' },
  }),
  column({
    name: 'sale_price',
    field: 'salePrice',
    type: 'double precision',
    value: (f) => f.sale?.SalePrice ?? null,
    copy: copyNumber,
    index: 'number',
    sort: 'SalePrice',
    filter: { criterion: 'salePrice', test: 'range' },
  }),
  column({
    name: 'living_area',
    field: 'livingArea',
    type: 'double precision',
    value: (f) => sum(f.residences.map((b) => b.Area)),
    copy: copyNumber,
    index: 'number',
    filter: { criterion: 'livingArea', test: 'range' },
  }),
  column({
    name: 'bedrooms',
    field: 'bedrooms',
    type: 'double precision',
    value: (f) => sum(f.residences.map((b) => b.Bedrooms)),
    copy: copyNumber,
    index: 'number',
    filter: { criterion: 'minBedrooms', test: 'atLeast' },
  }),
  column({
    name: 'bathrooms',
    field: 'bathrooms',
    type: 'double precision',
    value: ({ residences }) => {
      const full = sum(residences.map((b) => b.FullBaths));
      const half = sum(residences.map((b) => b.HalfBaths));
      return full == null && half == null ? null : (full ?? 0) + (half ?? 0) / 2;
    },
    copy: copyNumber,
    index: 'number',
    filter: { criterion: 'minBathrooms', test: 'atLeast' },
  }),
  column({
    name: 'has_residential',
    field: 'hasResidential',
    type: 'boolean',
    notNull: true,
    value: (f) => f.residences.length > 0,
    copy: copyBoolean,
    index: 'flag',
    filter: { criterion: 'ownership', test: 'flag', option: 'residential' },
  }),
  column({
    name: 'has_commercial',
    field: 'hasCommercial',
    type: 'boolean',
    notNull: true,
    value: (f) => f.record.CommercialBuildings.length > 0,
    copy: copyBoolean,
    index: 'flag',
    filter: { criterion: 'ownership', test: 'flag', option: 'commercial' },
  }),
  column({
    name: 'land_types',
    field: 'landTypes',
    type: 'text[]',
    notNull: true,
    value: (f) => distinct(f.record.Land.map((l) => l.LandDescription)),
    copy: copyTextArray,
    index: 'values',
    filter: { criterion: 'landTypes', test: 'anyOf' },
  }),
  column({
    name: 'building_styles',
    field: 'buildingStyles',
    type: 'text[]',
    notNull: true,
    value: (f) => distinct(f.residences.map((b) => b.BuildingType)),
    copy: copyTextArray,
    index: 'values',
    filter: { criterion: 'buildingStyles', test: 'anyOf' },
    result: 'BuildingStyles',
  }),
  column({
    name: 'search_doc',
    field: 'searchWords',
    type: 'tsvector',
    notNull: true,
    value: (f) => recordWords(f).all,
    copy: copyTsvector,
    index: 'words',
    // Exactly what the SQL path's tsquery matches.
    read: 'tsvector_to_array(search_doc)',
    readWithoutOwnerNames: 'tsvector_to_array(ts_delete(search_doc, owner_words))',
  }),
  column({
    name: 'codes',
    field: 'codes',
    type: 'text[]',
    notNull: true,
    defaultEmpty: true,
    value: codesOf,
    copy: copyTextArray,
    index: 'codes',
  }),
  // migrations/0014: the newest building's year (the sort) and every building's year (the filter).
  column({
    name: 'year_built',
    field: 'yearBuilt',
    type: 'integer',
    value: (f) => buildingYears(f).at(-1) ?? null,
    copy: copyNumber,
    index: 'number',
    sort: 'YearBuilt',
    result: 'YearBuilt',
  }),
  column({
    name: 'building_years',
    field: 'buildingYears',
    type: 'integer[]',
    notNull: true,
    defaultEmpty: true,
    value: buildingYears,
    copy: copyIntArray,
    index: 'numbers',
    filter: { criterion: 'yearBuilt', test: 'anyInRange' },
  }),
  // migrations/0016: the words of search_doc only owner names give. The roll index of a town whose
  // names are not searchable reads search_doc without them (`readWithoutOwnerNames` above).
  column({
    name: 'owner_words',
    field: 'ownerWords',
    type: 'text[]',
    notNull: true,
    defaultEmpty: true,
    value: (f) => recordWords(f).ownersOnly,
    copy: copyTextArray,
  }),
] as const;

export type SearchColumn = (typeof SEARCH_COLUMNS)[number];

/** The row's search values, each as its column's `value` gives it. */
export type SearchValues = { [C in SearchColumn as C['field']]: ReturnType<C['value']> };

/** A column as the roll index reads it. */
export interface IndexColumn {
  name: string;
  field: string;
  index: IndexKind;
  read?: string;
  readWithoutOwnerNames?: string;
  sort?: SortColumn;
  filter?: FilterSpec;
}

/** The columns the roll index reads, in the order of its select list. */
export const INDEX_COLUMNS: readonly IndexColumn[] = SEARCH_COLUMNS.filter(
  (c): c is Extract<SearchColumn, { index: IndexKind }> => c.index !== undefined,
);

/** The columns behind the public sorts. */
export const SORT_COLUMN_OF = Object.fromEntries(
  SEARCH_COLUMNS.flatMap((c) => (c.sort ? [[c.sort, c]] : [])),
) as Record<SortColumn, SearchColumn>;

/**
 * The columns a search result carries beside the summary. Read at search time rather than copied into
 * the summary's JSON, so rolls published before such a column's migration answer without a new import
 * (null, as year_built holds for them until their town publishes again).
 */
export const RESULT_COLUMNS: readonly { name: string; result: ResultField }[] = SEARCH_COLUMNS.flatMap((c) =>
  c.result ? [{ name: c.name, result: c.result }] : [],
);

/** A search result's select list over `properties p`: the summary, then each result column under its field. */
export const RESULT_SELECT = ['p.summary', ...RESULT_COLUMNS.map((c) => `p.${c.name} as "${c.result}"`)].join(
  ', ',
);

/** A row read through RESULT_SELECT. */
export type ResultRow = { summary: PropertySummary } & Partial<Record<ResultField, unknown>>;

/** A search result from its row: the summary with the result columns' values (null or [] when absent). */
export function searchResultOf(row: ResultRow): SearchResult {
  return {
    ...row.summary,
    YearBuilt: typeof row.YearBuilt === 'number' ? row.YearBuilt : null,
    BuildingStyles: Array.isArray(row.BuildingStyles) ? (row.BuildingStyles as string[]) : [],
  };
}

/** The COPY column list of a roll's rows (roll-rows.ts writes them in this order). */
export const ROLL_COPY_COLUMNS = ['roll_id', 'client_id', ...SEARCH_COLUMNS.map((c) => c.name)].join(', ');

/**
 * The importer's two steps per record, compiled once from the list into functions with fixed keys (a
 * loop over the columns costs more per record: a generic keyed store and load for every value). Keys
 * come from the list above, never from input.
 */
const perRecord = (() => {
  const fields = SEARCH_COLUMNS.map((c) => keyLiteral(c.field));
  return generated<{ values: (facts: RecordFacts) => SearchValues; copy: (row: SearchValues) => string }>(
    { columns: SEARCH_COLUMNS },
    `{
      values: (facts) => ({ ${fields.map((f, i) => `${f}: columns[${i}].value(facts)`).join(', ')} }),
      copy: (row) => ${fields.map((f, i) => `columns[${i}].copy(row[${f}])`).join(" + '\\t' + ")},
    }`,
  );
})();

/** The search columns' values of a row in COPY's text format, tab-separated, in COPY order. */
export const copySearchValues: (row: SearchValues) => string = perRecord.copy;

/** Computes every search value of a checked record. */
export const searchValuesOf: (facts: RecordFacts) => SearchValues = perRecord.values;

const readArray = (field: string) => (field === COPY_NULL ? [] : readTextArray(readCopyText(field)!));

/** How each index kind's value is read from the COPY text of the index's select list. */
export const INDEX_READERS: Record<IndexKind, (field: string) => unknown> = {
  account: readCopyText,
  accountKey: readCopyText,
  text: readCopyText,
  day: readCopyText,
  number: (field) => (field === COPY_NULL ? null : Number(field)),
  flag: (field) => field === 't',
  values: readArray,
  words: readArray,
  codes: readArray,
  numbers: (field) => readArray(field).map(Number),
};
