/*
 * Display formats of spec §9: money with up to 2 decimals, the tax rate × 1000 with 2 to 4 decimals,
 * sale dates as MM/DD/YYYY and other dates in en-US form. Empty values render as an empty string so
 * a table cell stays blank rather than showing "null" or "$0" for data the roll does not carry.
 */

/*
 * Numbers and dates are formatted by hand, as en-US Intl writes them (format.test.ts holds them to it):
 * a phone spends tens of milliseconds loading Intl's locale data on first use, inside the page's first
 * render.
 */

const isNum = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * `value` with `max` decimals at most and `min` at least (trailing zeros beyond `min` dropped). Rounded
 * as Intl rounds: half away from zero on the number's shortest decimal form (2.675 → 2.68), which
 * toFixed, working on the binary value 2.67499999…, does not.
 */
function decimals(value: number, min: number, max: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e21) return String(value);
  // Below 1e-6 String() writes an exponent; such a value rounds to zero at 4 decimals or fewer.
  const [whole = '0', fraction = ''] = (abs < 1e-6 ? '0' : String(abs)).split('.');
  let digits = whole + fraction.slice(0, max).padEnd(max, '0');
  if ((fraction[max] ?? '0') >= '5') digits = String(BigInt(digits) + 1n).padStart(digits.length, '0');
  let int = digits.slice(0, digits.length - max) || '0';
  let frac = digits.slice(digits.length - max);
  let end = frac.length;
  while (end > min && frac[end - 1] === '0') end--;
  frac = frac.slice(0, end);
  int = int.replace(/\B(?=(\d{3})+$)/g, ',');
  // Never "-0": a value that rounds to zero has no sign.
  const sign = value < 0 && /[1-9]/.test(digits) ? '-' : '';
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

/** A count with thousands separators: 1,000,000. */
export function formatCount(value: number): string {
  return decimals(value, 0, 0);
}

/** $123,400 for whole amounts, $1,234.50 when there are cents (never more than 2 decimals). */
export function formatMoney(value: number | null | undefined): string {
  if (!isNum(value)) return '';
  const cents = Math.round(value * 100);
  const text = decimals(Math.abs(cents) / 100, cents % 100 === 0 ? 0 : 2, cents % 100 === 0 ? 0 : 2);
  return cents < 0 ? `-$${text}` : `$${text}`;
}

/** A stored rate such as 0.01875 is shown per thousand: 18.75 (2 to 4 decimals). */
export function formatTaxRate(value: number | null | undefined): string {
  if (!isNum(value)) return '';
  // Rounding at 6 places first removes binary noise (0.01875 * 1000 = 18.750000000000004).
  return decimals(Number((value * 1000).toFixed(6)), 2, 4);
}

/** Plain number with thousands separators and up to 2 decimals (acres, areas, counts). */
export function formatNumber(value: number | null | undefined): string {
  return isNum(value) ? decimals(value, 0, 2) : '';
}

/** Percent values as stored (85 → "85%"). */
export function formatPercent(value: number | null | undefined): string {
  return isNum(value) ? `${decimals(value, 0, 2)}%` : '';
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
  // en-US's numeric date (what toLocaleDateString('en-US') writes), by hand: see the numbers above.
  return Number.isNaN(d.getTime()) ? '' : `${d.getMonth() + 1}/${d.getDate()}/${d.getFullYear()}`;
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
