/*
 * The Advanced Search's typed numbers (spec §5: price, bedrooms and bathrooms numbers; areas free text),
 * read as numbers: "2.5" baths stay 2.5, "$250,000" is 250000, and anything else ("five", "-3", "2.5"
 * bedrooms) is named to the visitor as they type, with what is accepted, instead of being rewritten
 * into another number or sent to the server.
 */

export interface NumberRule {
  /** Whole numbers only (bedrooms). */
  whole?: boolean;
  /** What the message says is accepted: "an amount in dollars, like 250,000". */
  example: string;
}

/** The number typed (null when empty), after dropping thousands separators and a leading "$". */
export function readNumber(text: string): number | null | undefined {
  const t = text
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/,/g, '');
  if (t === '') return null;
  if (!/^(\d+\.?\d*|\.\d+)$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** The message for a typed value that is not accepted, or null when it is (or is empty). */
export function numberError(text: string, rule: NumberRule): string | null {
  const n = readNumber(text);
  if (n === null) return null;
  if (n === undefined || (rule.whole && !Number.isInteger(n)))
    return `Enter ${rule.whole ? 'a whole number' : 'a number'}, for example ${rule.example}.`;
  return null;
}

/** "From" above "to" finds nothing: said beside the "to" field. */
export function rangeError(from: string, to: string): string | null {
  const a = readNumber(from);
  const b = readNumber(to);
  return typeof a === 'number' && typeof b === 'number' && a > b
    ? 'This is less than the "from" value.'
    : null;
}
