/*
 * How far from a parcel its abutters are sought: the rule of the API's `distance` (AbuttersQuery in
 * parcels.ts) and of the record page's distance box alike. No zod here: the record page imports this
 * module alone (zod and the other contracts would cost a phone ~30 KB and 170 ms of script).
 */

/** Abutters are sought at most half a mile away. */
export const MAX_ABUTTER_DISTANCE_FEET = 2640;
export const DEFAULT_ABUTTER_DISTANCE_FEET = 300;

/** Digits only: a whole number of feet, never a sign, a decimal or an exponent. */
export const ABUTTER_DISTANCE_PATTERN = /^\d{1,4}$/;
export const ABUTTER_DISTANCE_RULE = `must be a whole number of feet from 0 to ${MAX_ABUTTER_DISTANCE_FEET}`;

/** The distance a text names, or null when it breaks the rule. */
export function abutterDistanceFeet(text: string): number | null {
  if (!ABUTTER_DISTANCE_PATTERN.test(text)) return null;
  const feet = Number(text);
  return feet <= MAX_ABUTTER_DISTANCE_FEET ? feet : null;
}
