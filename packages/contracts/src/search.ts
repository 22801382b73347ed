import { z } from 'zod';
import { PropertySummary } from './property.ts';
import { RollDates } from './clients.ts';

/*
 * Search request and response (spec §3 "Search filters", "Sort", "Search response"; §7 propertysearch).
 * Filters are lenient the way the original web app sends them: every part optional, and empty strings,
 * nulls and empty lists mean "no filter". Free-text areas accept "1.5", "1,000", " 2 ".
 */

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A number typed into a form: a JSON number or a numeric string; "" and null mean "not set". */
const formNumber = (label: string) =>
  z.preprocess(
    (v) => {
      const e = emptyToUndefined(v);
      if (typeof e === 'string') {
        const t = e.trim().replace(/,/g, '');
        if (t === '') return undefined;
        return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : e;
      }
      return e;
    },
    z
      .number({ error: `${label} must be a number` })
      .finite({ message: `${label} must be a number` })
      .min(0, { message: `${label} must not be negative` })
      .max(1e12, { message: `${label} is too large` })
      .optional(),
  );

const formDate = (label: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((s) => s.trim().slice(0, 10))
      // Round-trips through Date so 2021-02-30 is refused here rather than by the database.
      .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isCalendarDate(s), {
        message: `${label} must be a date (YYYY-MM-DD)`,
      })
      .optional(),
  );

const isCalendarDate = (s: string) => {
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(s);
};

const range = <T extends z.ZodType>(start: T, end: T) =>
  z.preprocess(emptyToUndefined, z.object({ start, end }).partial().optional());

const stringList = z.preprocess(
  emptyToUndefined,
  z
    .array(
      z
        .string()
        .max(200)
        .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
    )
    .max(100)
    .optional(),
);

export const OWNERSHIP = ['residential', 'commercial'] as const;

export const SearchFilters = z
  .object({
    sale: z
      .object({
        price: range(formNumber('Sale price from'), formNumber('Sale price to')),
        date: range(formDate('Sale date from'), formDate('Sale date to')),
      })
      .partial()
      .optional(),
    land: z
      .object({
        area: range(formNumber('Land area from'), formNumber('Land area to')),
        type: stringList,
      })
      .partial()
      .optional(),
    building: z
      .object({
        area: range(formNumber('Building area from'), formNumber('Building area to')),
        style: stringList,
        bedrooms: formNumber('Bedrooms'),
        bathrooms: formNumber('Bathrooms'),
        ownership: z.preprocess(emptyToUndefined, z.array(z.enum(OWNERSHIP)).max(2).optional()),
        /** Any of the parcel's residences or commercial buildings was built in the range (years). */
        yearBuilt: range(formNumber('Year built from'), formNumber('Year built to')),
      })
      .partial()
      .optional(),
  })
  .partial();
export type SearchFilters = z.input<typeof SearchFilters>;
export type ParsedSearchFilters = z.output<typeof SearchFilters>;

export const SORT_COLUMNS = [
  'MapLot',
  'Name',
  'Location',
  'BuildingLand',
  'Acres',
  'SaleDate',
  'SalePrice',
  'YearBuilt',
] as const;
export const SortColumn = z.enum(SORT_COLUMNS, { error: `sortby must be one of ${SORT_COLUMNS.join(', ')}` });
export type SortColumn = z.infer<typeof SortColumn>;

export const SortSpec = z.object({ sortby: SortColumn, descending: z.boolean().default(false) });
export type SortSpec = z.infer<typeof SortSpec>;

/**
 * One sort or an ordered list (first = highest priority), parsed to a list. A single object is read as a
 * one-item list (so errors name `sort.0.sortby`), and a sort whose sortby is empty or null means
 * "no sort", as the original web app sends when every column is off.
 */
export const SortInput = z.preprocess((v) => {
  const isOff = (s: unknown) =>
    typeof s === 'object' && s !== null && 'sortby' in s && (s.sortby === '' || s.sortby === null);
  const e = emptyToUndefined(v);
  if (Array.isArray(e)) return e.filter((s) => !isOff(s));
  if (e === undefined || isOff(e)) return undefined;
  return [e];
}, z.array(SortSpec).max(SORT_COLUMNS.length).optional());

const SearchBodyObject = z
  .object({
    filters: z.preprocess(emptyToUndefined, SearchFilters.optional()),
    sort: SortInput,
  })
  .partial();
/** A POST without a body (Fastify hands it over as null) searches with no filters and the default sort. */
export const SearchBody = z.preprocess((v) => (v === null || v === undefined ? {} : v), SearchBodyObject);
export type SearchBody = z.input<typeof SearchBodyObject>;

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_QUERY_LENGTH = 200;

const positiveIntString = (label: string, max: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[0-9]{1,9}$/, { message: `${label} must be a whole number` })
      .transform(Number)
      .refine((n) => n >= 1, { message: `${label} must be at least 1` })
      .refine((n) => n <= max, { message: `${label} must be at most ${max}` })
      .optional(),
  );

export const SearchQuerystring = z.object({
  query: z
    .string()
    .max(MAX_QUERY_LENGTH, { message: `query must be at most ${MAX_QUERY_LENGTH} characters` })
    .refine((s) => !s.includes('\u0000'), 'query must not contain NUL characters')
    .optional(),
  page: positiveIntString('page', 1_000_000),
  pagesize: positiveIntString('pagesize', MAX_PAGE_SIZE),
});

/**
 * One search result: the parcel's summary, plus what people comparing parcels look at, read from the
 * roll's search columns (so a roll published before a column existed answers null or empty rather than
 * needing a new import).
 */
export const SearchResult = PropertySummary.extend({
  /** The newest of the parcel's residential and commercial buildings (the YearBuilt sort's value). */
  YearBuilt: z
    .number()
    .int()
    .nullable()
    .describe("The newest of the parcel's residential and commercial buildings' YearBuilt; null when none"),
  /** The residential buildings' styles (BuildingType), distinct, sorted: the `building.style` filter's values. */
  BuildingStyles: z
    .array(z.string())
    .describe("The residential buildings' BuildingType, distinct and sorted; empty when none"),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchResponse = z.object({
  SearchProperties: z.array(SearchResult),
  PageSize: z.number().int(),
  PageNumber: z.number().int(),
  Pages: z.number().int(),
  TotalRecords: z.number().int(),
  /** Not in the original: true when TotalRecords is an estimate (see API docs). */
  TotalIsEstimate: z.boolean(),
  /** Not in the original: when the town's roll was published and what its values date from. */
  ...RollDates.shape,
});
export type SearchResponse = z.infer<typeof SearchResponse>;

export const LandBuildingOptions = z.object({
  landType: z.array(z.string()),
  buildingStyle: z.array(z.string()),
});
export type LandBuildingOptions = z.infer<typeof LandBuildingOptions>;

export const SuggestionKind = z.enum(['owner', 'address', 'maplot']);
export const Suggestion = z.object({
  kind: SuggestionKind,
  text: z.string(),
  account: z.string().nullable(),
});
export type Suggestion = z.infer<typeof Suggestion>;
export const SuggestResponse = z.object({ suggestions: z.array(Suggestion) });

/**
 * POST /api/search/{id}: the provider console's alias of propertysearch. It sends the filter object as
 * the whole body, so a body without `filters`/`sort` but with sale/land/building is read as filters.
 */
export const SearchAliasBody = z.preprocess((v) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  if ('filters' in v || 'sort' in v) return v;
  return ['sale', 'land', 'building'].some((k) => k in v) ? { filters: v } : v;
}, SearchBody);

/** A JSON-encoded query parameter (export.csv carries filters and sort this way). */
const jsonParam = <T extends z.ZodType>(name: string, schema: T) =>
  z
    .string()
    .max(10_000, { message: `${name} must be at most 10000 characters` })
    .optional()
    .transform((s, ctx) => {
      if (s === undefined || s.trim() === '') return undefined;
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `${name} must be JSON (URL-encoded)` });
        return z.NEVER;
      }
    })
    .pipe(schema);

/** GET /api/propertysearch/{clientId}/export.csv: the search's inputs as query parameters. */
export const ExportQuerystring = z.object({
  query: SearchQuerystring.shape.query,
  filters: jsonParam('filters', z.preprocess(emptyToUndefined, SearchFilters.optional())),
  sort: jsonParam('sort', SortInput),
});

/** Rows in one CSV export; a larger result is cut here (the response says so in its headers). */
export const MAX_EXPORT_ROWS = 50_000;

/** Results the results map places at most; past it the map says how many it leaves out. */
export const MAX_RESULT_POINTS = 50_000;

/**
 * GET /api/propertysearch/{clientId}/points: where a search's results are, every page at once, for the
 * results map to cluster. Each result on the town's parcel map is `[Account, Location, longitude,
 * latitude]`, its parcel's centroid (a condominium's units share their building's). Results without a
 * shape are not listed.
 */
export const ResultPoints = z.object({
  Points: z.array(z.tuple([z.string(), z.string(), z.number(), z.number()])),
  /** The search's matches, whether or not they are on the map. */
  TotalRecords: z.number().int(),
  /** The matches read: TotalRecords, or MAX_RESULT_POINTS when there were more. */
  RecordsRead: z.number().int(),
});
export type ResultPoints = z.infer<typeof ResultPoints>;

export const MAX_SUGGESTIONS = 10;
export const SuggestQuerystring = z.object({
  q: z
    .string()
    .max(MAX_QUERY_LENGTH, { message: `q must be at most ${MAX_QUERY_LENGTH} characters` })
    .refine((s) => !s.includes('\u0000'), 'q must not contain NUL characters')
    .optional(),
});
