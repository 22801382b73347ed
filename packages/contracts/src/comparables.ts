import { z } from 'zod';
import {
  COMPARABLE_DISTANCE,
  COMPARABLE_DISTANCE_PATTERN,
  COMPARABLE_DISTANCE_RULE,
  COMPARABLE_SIZE_RULE,
  COMPARABLE_SIZES,
  COMPARABLE_YEARS,
  COMPARABLE_YEARS_PATTERN,
  COMPARABLE_YEARS_RULE,
  comparableDistance,
  comparableYears,
  DEFAULT_COMPARABLE_SIZE,
} from './comparable-criteria.ts';
import { ParcelProperties } from './parcels.ts';

/*
 * Comparable sales (issue 49): for a parcel, the recent arm's-length sales of similar properties near
 * it, ranked by a similarity score. The criteria's rules live in comparable-criteria.ts.
 */

/** A query number checked by `parse` (the pattern also goes into the OpenAPI document). */
const ruled = (pattern: RegExp, rule: string, parse: (text: string) => number | null, fallback: number) =>
  z
    .string()
    .regex(pattern, { message: rule })
    .transform((text, ctx) => {
      const n = parse(text);
      if (n === null) {
        ctx.addIssue({ code: 'custom', message: rule });
        return z.NEVER;
      }
      return n;
    })
    .optional()
    .transform((n) => n ?? fallback);

export const ComparablesQuery = z.object({
  /** Miles between the parcels' centroids. */
  distance: ruled(
    COMPARABLE_DISTANCE_PATTERN,
    COMPARABLE_DISTANCE_RULE,
    comparableDistance,
    COMPARABLE_DISTANCE.default,
  ),
  /** Years of sales, up to the roll's most recent sale. */
  years: ruled(COMPARABLE_YEARS_PATTERN, COMPARABLE_YEARS_RULE, comparableYears, COMPARABLE_YEARS.default),
  /** Living area within this percent of the subject's, or `any`. */
  size: z
    .enum(COMPARABLE_SIZES, { message: COMPARABLE_SIZE_RULE })
    .optional()
    .transform((s) => s ?? DEFAULT_COMPARABLE_SIZE),
  /** 1: list the sales that are not arm's length too (marked), instead of only counting them. */
  allSales: z
    .enum(['0', '1', 'true', 'false'], { message: 'must be 1 or 0' })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
export type ComparablesQuery = z.output<typeof ComparablesQuery>;

/** [longitude, latitude] (WGS 84) of a parcel's centroid. */
const Centroid = z.tuple([z.number(), z.number()]);

export const ComparableSubject = ParcelProperties.extend({
  /** The town's use-code group the comparables share (null: the record has no use code). */
  PropertyClass: z.string().nullable(),
  /** Square feet of living area (the residential buildings' areas added), or null. */
  LivingArea: z.number().nullable(),
  /** The newest building's year, or null. */
  YearBuilt: z.number().int().nullable(),
  Centroid,
});
export type ComparableSubject = z.infer<typeof ComparableSubject>;

export const Comparable = ParcelProperties.extend({
  SaleDate: z.string(),
  SalePrice: z.number(),
  /** Sale price per square foot of living area (rounded to the cent), or null without a living area. */
  PricePerSqFt: z.number().nullable(),
  LivingArea: z.number().nullable(),
  YearBuilt: z.number().int().nullable(),
  /** Miles between the two parcels' centroids, to the hundredth. */
  DistanceMiles: z.number().nonnegative(),
  Centroid,
  /** Similarity to the subject, 0 to 100 (docs/comparable-sales.md). */
  Score: z.number(),
  Book: z.string(),
  Page: z.string(),
  /** The sale's qualification or deed type as the town records it. */
  SaleType: z.string(),
  /** Empty where the parcel's or the town's owner names are withheld. */
  SaleParty: z.string(),
  /** False only for a sale listed because `allSales` asked for sales that are not arm's length. */
  ArmsLength: z.boolean(),
});
export type Comparable = z.infer<typeof Comparable>;

export const ComparablesResponse = z.object({
  Subject: ComparableSubject,
  Criteria: z.object({
    DistanceMiles: z.number(),
    Years: z.number().int(),
    Size: z.enum(COMPARABLE_SIZES),
    /** The period's first and last day (YYYY-MM-DD), or null when the roll records no sale. */
    PeriodFrom: z.string().nullable(),
    PeriodTo: z.string().nullable(),
    /** The living-area range compared, or null when not compared (size `any`, or no subject area). */
    LivingAreaMin: z.number().nullable(),
    LivingAreaMax: z.number().nullable(),
    AllSales: z.boolean(),
  }),
  /** Best first. */
  Comparables: z.array(Comparable),
  /** How many sales matched in all (the list holds at most MAX_COMPARABLES). */
  Total: z.number().int().nonnegative(),
  /** Matching sales that are not arm's length, by reason: left out unless `allSales`. */
  NotArmsLength: z.object({
    /** The town's qualification code marks the sale as not arm's length (e.g. Vision's `U`). */
    Qualification: z.number().int().nonnegative(),
    /** No price, or a price under the nominal threshold. */
    NominalPrice: z.number().int().nonnegative(),
  }),
  /** When the town's roll was published (ISO date-time), or null. */
  DataAsOf: z.string().nullable(),
});
export type ComparablesResponse = z.infer<typeof ComparablesResponse>;
