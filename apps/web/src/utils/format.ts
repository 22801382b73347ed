/*
 * Display formats of spec §9: money with up to 2 decimals, the tax rate × 1000 with 2 to 4 decimals,
 * sale dates as MM/DD/YYYY and other dates in en-US form. Empty values render as an empty string so
 * a table cell stays blank rather than showing "null" or "$0" for data the roll does not carry.
 */

const money0 = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const money2 = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const rate = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const plain = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

const isNum = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** $123,400 for whole amounts, $1,234.50 when there are cents (never more than 2 decimals). */
export function formatMoney(value: number | null | undefined): string {
  if (!isNum(value)) return '';
  const cents = Math.round(value * 100);
  return cents % 100 === 0 ? money0.format(cents / 100) : money2.format(cents / 100);
}

/** A stored rate such as 0.01875 is shown per thousand: 18.75 (2 to 4 decimals). */
export function formatTaxRate(value: number | null | undefined): string {
  if (!isNum(value)) return '';
  // Rounding at 6 places first removes binary noise (0.01875 * 1000 = 18.750000000000004).
  return rate.format(Number((value * 1000).toFixed(6)));
}

/** Plain number with thousands separators and up to 2 decimals (acres, areas, counts). */
export function formatNumber(value: number | null | undefined): string {
  return isNum(value) ? plain.format(value) : '';
}

/** Percent values as stored (85 → "85%"). */
export function formatPercent(value: number | null | undefined): string {
  return isNum(value) ? `${plain.format(value)}%` : '';
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * A calendar date (YYYY-MM-DD, or the date part of a date-time) as MM/DD/YYYY. Read from the text, not
 * through Date, so a sale on 2020-01-01 never shows as 12/31/2019 in a western time zone.
 */
export function formatSaleDate(value: string | null | undefined): string {
  const m = value ? ISO_DATE.exec(value) : null;
  return m ? `${m[2]}/${m[3]}/${m[1]}` : '';
}

/** An instant (ISO date-time) as an en-US date in the visitor's time zone, e.g. 3/14/2025. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatSaleDate(value).replace(/(^|\/)0(\d)/g, '$1$2');
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString('en-US');
}

/** "12 A Main St": street number, apartment and street name, skipping the empty parts. */
export function formatLocation(p: { StreetNumber: string; Apartment: string; StreetName: string }): string {
  return [p.StreetNumber, p.Apartment, p.StreetName]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
}

/** Building value plus land value; null only when both are missing. */
export function buildingPlusLand(building: number | null, land: number | null): number | null {
  if (!isNum(building) && !isNum(land)) return null;
  return (isNum(building) ? building : 0) + (isNum(land) ? land : 0);
}
