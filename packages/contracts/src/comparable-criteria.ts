/*
 * What a comparable sale is sought by (issue 49): the rules of the API's query (ComparablesQuery in
 * comparables.ts) and of the record page's controls alike. No zod here: the record page imports this
 * module alone, as it does abutter-distance.ts.
 */

/** How far from the subject, between parcel centroids, in miles. */
export const COMPARABLE_DISTANCE = { min: 0.1, max: 3, default: 0.5 } as const;
/** How many years of sales, up to the roll's most recent sale. */
export const COMPARABLE_YEARS = { min: 1, max: 5, default: 2 } as const;
/** How far a comparable's living area may be from the subject's, in percent ("any": not compared). */
export const COMPARABLE_SIZES = ['10', '25', '50', 'any'] as const;
export type ComparableSize = (typeof COMPARABLE_SIZES)[number];
export const DEFAULT_COMPARABLE_SIZE: ComparableSize = '25';
/** A sale below this price (dollars) is nominal, not a market sale: a gift, a family or a tax transfer. */
export const NOMINAL_SALE_PRICE = 1000;
/** The most comparables an answer lists (the best by score). */
export const MAX_COMPARABLES = 200;

/** Digits with at most two decimals: never a sign, an exponent or a leading dot. */
export const COMPARABLE_DISTANCE_PATTERN = /^\d{1,2}(?:\.\d{1,2})?$/;
export const COMPARABLE_DISTANCE_RULE = `must be a number of miles from ${COMPARABLE_DISTANCE.min} to ${COMPARABLE_DISTANCE.max}`;
export const COMPARABLE_YEARS_PATTERN = /^\d{1,2}$/;
export const COMPARABLE_YEARS_RULE = `must be a whole number of years from ${COMPARABLE_YEARS.min} to ${COMPARABLE_YEARS.max}`;
export const COMPARABLE_SIZE_RULE = `must be one of ${COMPARABLE_SIZES.join(', ')}`;

/** The distance a text names, or null when it breaks the rule. */
export function comparableDistance(text: string): number | null {
  if (!COMPARABLE_DISTANCE_PATTERN.test(text)) return null;
  const miles = Number(text);
  return miles >= COMPARABLE_DISTANCE.min && miles <= COMPARABLE_DISTANCE.max ? miles : null;
}

/** The years a text names, or null when it breaks the rule. */
export function comparableYears(text: string): number | null {
  if (!COMPARABLE_YEARS_PATTERN.test(text)) return null;
  const years = Number(text);
  return years >= COMPARABLE_YEARS.min && years <= COMPARABLE_YEARS.max ? years : null;
}

/** The weights of the similarity score (comparables.service.ts; docs/comparable-sales.md). */
export const COMPARABLE_SCORE_WEIGHTS = { distance: 0.35, size: 0.25, age: 0.2, recency: 0.2 } as const;
/** A difference in year built of this many years or more counts as wholly unlike. */
export const COMPARABLE_AGE_SPAN_YEARS = 50;
