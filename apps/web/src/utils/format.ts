/*
 * The web app's one formatter module (spec §9): money with up to 2 decimals, the tax rate × 1000 with 2
 * to 4 decimals, acres with exactly 2, and every date as MM/DD/YYYY (one date style on every page).
 * Empty values render as an empty string so a table cell stays blank rather than showing "null" or "$0"
 * for data the roll does not carry. Everything goes through Intl, created once per format.
 */

const LOCALE = 'en-US';

const isNum = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

const number = (options: Intl.NumberFormatOptions) => new Intl.NumberFormat(LOCALE, options);

const COUNT = number({ maximumFractionDigits: 0 });
const MONEY_WHOLE = number({ style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const MONEY_CENTS = number({
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const RATE = number({ minimumFractionDigits: 2, maximumFractionDigits: 4 });
const PLAIN = number({ maximumFractionDigits: 2 });
const ACRES = number({ minimumFractionDigits: 2, maximumFractionDigits: 2 });
const PERCENT = number({ maximumFractionDigits: 2 });
const DATE = new Intl.DateTimeFormat(LOCALE, { year: 'numeric', month: '2-digit', day: '2-digit' });
/** A calendar date is formatted in UTC, where its midnight lies, so no time zone moves its day. */
const CALENDAR_DATE = new Intl.DateTimeFormat(LOCALE, {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  timeZone: 'UTC',
});
const DATE_TIME = new Intl.DateTimeFormat(LOCALE, {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: 'numeric',
  minute: '2-digit',
});

/** Intl writes "-0" and "-$0" for values that round to zero; nothing here shows a sign on zero. */
const noNegativeZero = (v: number, digits: number) => (Math.abs(v) < 0.5 / 10 ** digits ? 0 : v);

/** A count with thousands separators: 1,000,000. */
export function formatCount(value: number): string {
  return COUNT.format(noNegativeZero(value, 0));
}

/** A count and its noun: `1 warning`, `1,310 warnings` (`many` for an irregular plural). */
export function formatCountOf(value: number, one: string, many = `${one}s`): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}

/** $123,400 for whole amounts, $1,234.50 when there are cents (never more than 2 decimals). */
export function formatMoney(value: number | null | undefined): string {
  if (!isNum(value)) return '';
  const cents = Math.round(value * 100);
  return cents % 100 === 0
    ? MONEY_WHOLE.format(noNegativeZero(cents / 100, 0))
    : MONEY_CENTS.format(cents / 100);
}

/** A stored rate such as 0.01875 is shown per thousand: 18.75 (2 to 4 decimals). */
export function formatTaxRate(value: number | null | undefined): string {
  if (!isNum(value)) return '';
  // Rounding at 6 places first removes binary noise (0.01875 * 1000 = 18.750000000000004).
  return RATE.format(Number((value * 1000).toFixed(6)));
}

/** Plain number with thousands separators and up to 2 decimals (areas, units, factors). */
export function formatNumber(value: number | null | undefined): string {
  return isNum(value) ? PLAIN.format(noNegativeZero(value, 2)) : '';
}

/** Acres always with 2 decimals (0.25, 1.00, 12.50), so a column of them lines up. */
export function formatAcres(value: number | null | undefined): string {
  return isNum(value) ? ACRES.format(noNegativeZero(value, 2)) : '';
}

const SQUARE_FEET_PER_ACRE = 43_560;

/** A lot's square feet when it is under an acre ("1,057 sq ft"), where acres alone say too little; else ''. */
export function formatLotSquareFeet(acres: number | null | undefined): string {
  if (!isNum(acres) || acres <= 0 || acres >= 1) return '';
  return `${formatCount(Math.round(acres * SQUARE_FEET_PER_ACRE))} sq ft`;
}

/** A lot's area in acres, with its square feet beside them under an acre: "0.02 (1,057 sq ft)". */
export function formatLotArea(acres: number | null | undefined): string {
  const sqft = formatLotSquareFeet(acres);
  return sqft ? `${formatAcres(acres)} (${sqft})` : formatAcres(acres);
}

/** Percent values as stored (85 → "85%"). */
export function formatPercent(value: number | null | undefined): string {
  return isNum(value) ? `${PERCENT.format(noNegativeZero(value, 2))}%` : '';
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Any date the app shows, as MM/DD/YYYY. A calendar date (YYYY-MM-DD) keeps its day in every time zone
 * (a sale on 2020-01-01 never shows as 12/31/2019 in the west); an instant shows the visitor's day.
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  if (typeof value === 'string') {
    const day = ISO_DATE.exec(value.slice(0, 10));
    // A date-time at midnight UTC (how some rolls write a plain date) is that calendar date too.
    if (day && (value.length === 10 || /T00:00(:00(\.0+)?)?(Z|\+00:00)$/.test(value)))
      return CALENDAR_DATE.format(new Date(`${value.slice(0, 10)}T00:00:00Z`));
  }
  const d = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? '' : DATE.format(d);
}

/** An instant with its time, for the import history: 03/14/2025, 2:05 PM. */
export function formatDateAndTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : DATE_TIME.format(d);
}

export { formatLocation } from '@opp/contracts/addresses';

/** Building value plus land value; null only when both are missing. */
export function buildingPlusLand(building: number | null, land: number | null): number | null {
  if (!isNum(building) && !isNum(land)) return null;
  return (isNum(building) ? building : 0) + (isNum(land) ? land : 0);
}
