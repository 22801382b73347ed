import { z } from 'zod';
import { PropertySummary } from './property.ts';

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
      .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), {
        message: `${label} must be a date (YYYY-MM-DD)`,
      })
      .optional(),
  );

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
] as const;
export const SortColumn = z.enum(SORT_COLUMNS, { error: `sortby must be one of ${SORT_COLUMNS.join(', ')}` });
export type SortColumn = z.infer<typeof SortColumn>;

export const SortSpec = z.object({ sortby: SortColumn, descending: z.boolean().default(false) });
export type SortSpec = z.infer<typeof SortSpec>;

/** One sort or an ordered list (first = highest priority). */
export const SortInput = z.preprocess(
  emptyToUndefined,
  z.union([SortSpec, z.array(SortSpec).max(SORT_COLUMNS.length)]).optional(),
);

export const SearchBody = z
  .object({
    filters: z.preprocess(emptyToUndefined, SearchFilters.optional()),
    sort: SortInput,
  })
  .partial()
  .default({});
export type SearchBody = z.input<typeof SearchBody>;

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

export const SearchResponse = z.object({
  SearchProperties: z.array(PropertySummary),
  PageSize: z.number().int(),
  PageNumber: z.number().int(),
  Pages: z.number().int(),
  TotalRecords: z.number().int(),
  /** Not in the original: true when TotalRecords is an estimate (see API docs). */
  TotalIsEstimate: z.boolean(),
  /** Not in the original: when the town's roll was last published. */
  LastUpdated: z.string().nullable(),
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
