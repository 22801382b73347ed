/*
 * The transforms a mapping applies to source cells (docs/import-format.md, "Transforms"). Each is a pure
 * function of the cell text (already trimmed, runs of spaces folded) and the transform's options; it
 * returns the value, or a problem in words an assessor understands. An empty cell never reaches them.
 */

export type Value = string | number | boolean | null;
/** A value (and, for a unit conversion, what was converted), or a problem in words. */
export type Outcome = { value: Value; converted?: string } | { problem: string };

const ok = (value: Value): Outcome => ({ value });
const problem = (text: string): Outcome => ({ problem: text });
const quote = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

const NEEDS_CLEANING = /^\s|\s$|\s\s|[\t\n\r\u00a0¬]/;

/** Trims, folds runs of white space (a non-breaking space included) and drops the mis-decoded "¬†". */
export function cleanCell(raw: string): string {
  // Most cells need nothing: one test instead of three replacements.
  if (!NEEDS_CLEANING.test(raw)) return raw;
  return raw
    .replace(/¬†|\u00a0/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

// ─── numbers ────────────────────────────────────────────────────────────────────────────────────────

/** Digits with thousands commas or none, a decimal part, an exponent (`2.3e-05`) after digits only. */
export const NUMBER_TEXT = /^(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d{1,3})?$/;

/**
 * Money and counts written as text: an optional sign or accounting parentheses, an optional "$",
 * digits with thousands commas in the right places, an optional decimal part. `$1,234.50` → 1234.5,
 * `1,234` → 1234, `(250)` → -250, and scientific notation as spreadsheets write small numbers
 * (`2.3e-05`, `1E+06`). Anything else (`N/A`, `12abc`, `1,23`) is not a number.
 */
export function parseNumber(text: string): number | null {
  let s = text.replace(/\s+/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = negative !== s.startsWith('-');
    s = s.slice(1);
  }
  if (s.startsWith('$')) s = s.slice(1);
  if (!NUMBER_TEXT.test(s) || !/\d/.test(s)) return null;
  const n = Number(s.replace(/,/g, ''));
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

export function toNumber(text: string): Outcome {
  const n = parseNumber(text);
  return n === null ? problem(`expected a number, got ${quote(text)}`) : ok(n);
}

/** A whole number (a year, a count): `1,978` → 1978; `2.5` is a problem. */
export function toInteger(text: string): Outcome {
  const n = parseNumber(text);
  if (n === null || !Number.isInteger(n)) return problem(`expected a whole number, got ${quote(text)}`);
  return ok(n);
}

/** Stories and other mixed fractions: `1 1/4` → 1.25, `3/4` → 0.75, `2.5` → 2.5. */
export function toFraction(text: string): Outcome {
  const m = /^(?:(\d+)\s+)?(\d+)\/(\d+)$/.exec(text);
  if (m) {
    const den = Number(m[3]);
    if (den === 0) return problem(`expected a number, got ${quote(text)}`);
    return ok(Number(m[1] ?? 0) + Number(m[2]) / den);
  }
  return toNumber(text);
}

/**
 * Vision's story-height codes: whole stories, then a letter for the part story above them. Vision
 * writes `1H` for 1½ and `1T` for 1¾ stories (the half- and three-quarter-story sketch areas), `1A` for
 * a story with an attic above it, counted as a quarter story. docs/import-format.md has the table.
 */
export const VISION_STORY_PARTS: Record<string, { add: number; means: string }> = {
  H: { add: 0.5, means: 'and a half story' },
  T: { add: 0.75, means: 'and a three-quarter story' },
  A: { add: 0.25, means: 'and an attic (a quarter story)' },
};

/** Stories as a number: `2`, `1.75`, `1 1/2`, or a Vision code `1H` (1.5), `1T` (1.75), `2A` (2.25). */
export function toStories(text: string): Outcome {
  const m = /^(\d{1,2})\s*([A-Z])$/i.exec(text.trim());
  if (m) {
    const part = Object.hasOwn(VISION_STORY_PARTS, m[2]!.toUpperCase())
      ? VISION_STORY_PARTS[m[2]!.toUpperCase()]!
      : null;
    if (!part)
      return problem(
        `unknown story code ${quote(text)} (Vision's codes add ${Object.keys(VISION_STORY_PARTS).join(', ')} to the whole stories)`,
      );
    return ok(Number(m[1]) + part.add);
  }
  const n = toFraction(text);
  return 'problem' in n ? problem(`expected a number of stories, got ${quote(text)}`) : n;
}

/** A rate in dollars per $1,000 (a mill rate) as the fraction a tax row holds: 23.98 → 0.02398. */
export function perThousand(text: string): Outcome {
  const n = parseNumber(text);
  if (n === null) return problem(`expected a rate per $1,000, got ${quote(text)}`);
  return ok(roundTo(n / 1000, 10));
}

export function roundTo(n: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
}

/** Tax as rate × taxable value, to the cent. */
export function taxAmount(rate: number, taxable: number): number {
  return roundTo(rate * taxable, 2);
}

// ─── areas ──────────────────────────────────────────────────────────────────────────────────────────

export type AreaUnit = 'acres' | 'squareFeet';
export const SQUARE_FEET_PER_ACRE = 43_560;

/** How exports write their area units (`A`, `AC`, `Acres`, `S`, `SF`, `SqFt`, `SQ FT`, …). */
export function areaUnit(text: string): AreaUnit | null {
  const key = text.toUpperCase().replace(/[^A-Z]/g, '');
  if (['A', 'AC', 'ACRE', 'ACRES', 'ACS'].includes(key)) return 'acres';
  if (['S', 'SF', 'SQFT', 'SQUAREFEET', 'SQUAREFOOT', 'FT', 'FEET'].includes(key)) return 'squareFeet';
  return null;
}

/**
 * An area converted between square feet and acres (43,560 sq ft an acre). Acres keep 4 decimals (about
 * 4 sq ft), square feet 1.
 */
export function convertArea(text: string, from: AreaUnit, to: AreaUnit): Outcome {
  const n = parseNumber(text);
  if (n === null) return problem(`expected an area, got ${quote(text)}`);
  if (from === to) return ok(n);
  return ok(to === 'acres' ? roundTo(n / SQUARE_FEET_PER_ACRE, 4) : roundTo(n * SQUARE_FEET_PER_ACRE, 1));
}

// ─── dates ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * A date as YYYY-MM-DD, from the forms exports use: `M/D/YYYY` (US order), `YYYYMMDD`, ISO
 * `YYYY-MM-DD`, each optionally followed by a time (`2008-06-20 00:00:00.000`, `7/5/2005 12:00:00 AM`,
 * `2024-04-01T00:00:00Z`), which is dropped. The date must exist; an unlikely year (`0987`) is read as
 * written, and warned of by the import.
 */
export function toDate(text: string): Outcome {
  const s = text.trim();
  let parts: [string, string, string];
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(s))) parts = [m[1]!, m[2]!, m[3]!];
  else if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: .*)?$/.exec(s))) parts = [m[3]!, m[1]!, m[2]!];
  else if ((m = /^(\d{4})(\d{2})(\d{2})(?:[T ]?\d{4,6}(?:\.\d+)?Z?)?$/.exec(s)))
    parts = [m[1]!, m[2]!, m[3]!];
  else return problem(`expected a date (M/D/YYYY, YYYYMMDD or YYYY-MM-DD), got ${quote(text)}`);
  const [y, month, day] = parts;
  const iso = `${y}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || !date.toISOString().startsWith(iso))
    return problem(`${quote(text)} is not a real date`);
  // A year typed `0987` is read as written: the import warns of it (import-notes.ts) and publishes it.
  return ok(iso);
}

// ─── flags ──────────────────────────────────────────────────────────────────────────────────────────

const TRUE = new Set(['Y', 'YES', 'T', 'TRUE', '1', 'X', 'ON']);
const FALSE = new Set(['N', 'NO', 'F', 'FALSE', '0', 'OFF']);

/** Yes/no columns: `Y`/`N`, `YES`/`NO`, `1`/`0`, `TRUE`/`FALSE`, `T`/`F`, `X` (a ticked box), any case. */
export function toFlag(text: string): Outcome {
  const key = text.trim().toUpperCase();
  if (TRUE.has(key)) return ok(true);
  if (FALSE.has(key)) return ok(false);
  return problem(`expected a yes/no value (Y/N, 1/0, TRUE/FALSE), got ${quote(text)}`);
}

// ─── addresses ──────────────────────────────────────────────────────────────────────────────────────

export interface StreetAddress {
  number: string;
  street: string;
  unit: string;
}

/** One house number: `12`, `12A`, `44.5`, `58 1/2`, `65R`. */
const HOUSE = String.raw`\d+[A-Z]?(?:\.\d+)?(?: \d\/\d)?[A-Z]?`;
/** A house number or a range or list of them: `12-14`, `26+28`, `63-65-65R`, `23-23 1/2`. */
const NUMBER_PART = new RegExp(String.raw`^(${HOUSE}(?: ?[-+&] ?${HOUSE})*) (.+)$`, 'i');
/** The unit at the end in words: `UNIT 1`, `UNIT #3`, `APT 2B`, `STE 100`. */
const UNIT_WORDS = /\s+(?:UNIT|APT|APARTMENT|STE|SUITE)\b\s*#?\s*([A-Z0-9][A-Z0-9/.-]*(?: \d\/\d)?)$/i;
/** The word a unit after "#" may repeat: `#Unit 10` is unit 10. */
const UNIT_WORD_AFTER_HASH = /^(?:UNIT|APT|APARTMENT|STE|SUITE)\b\s*/i;

/**
 * A one-line street address split into house number, street and unit: `12-14 MAIN ST` → 12-14 /
 * MAIN ST; `4 CANAL PK #PH10` → 4 / CANAL PK / PH10; `37 NORTH RD UNIT 1` → 37 / NORTH RD / 1 (a whole
 * word: `5 MEADOW BROOK APTS` is all street); `20 MORGAN DR #Unit 10` → unit 10. A house
 * number `0` means the parcel has none (`0 OFF GOOSE POND RD` → street OFF GOOSE POND RD); an address
 * without a number is all street.
 */
export function splitStreetAddress(address: string): StreetAddress {
  // A mapping reads number, street and unit of the same cell one after another.
  if (address === lastAddress.input) return lastAddress.output;
  const output = splitAddress(address);
  lastAddress = { input: address, output };
  return output;
}

let lastAddress: { input: string; output: StreetAddress } = {
  input: '',
  output: { number: '', street: '', unit: '' },
};

function splitAddress(address: string): StreetAddress {
  let rest = cleanCell(address);
  let unit = '';
  // Everything after the first "#" is the unit (`#89/91#1` included); else a trailing UNIT/APT/STE.
  const hash = rest.indexOf('#');
  if (hash > 0) {
    unit = rest
      .slice(hash + 1)
      .trim()
      .replace(UNIT_WORD_AFTER_HASH, '');
    rest = rest
      .slice(0, hash)
      .replace(/\s+(?:UNIT|APT|APARTMENT|STE|SUITE)\s*$/i, '')
      .trim();
  } else {
    const u = UNIT_WORDS.exec(rest);
    if (u) {
      unit = u[1]!;
      rest = rest.slice(0, u.index).trim();
    }
  }
  const m = NUMBER_PART.exec(rest);
  if (!m) return { number: '', street: rest, unit };
  const number = m[1]!.replace(/ ?([-+&]) ?/g, '$1');
  return { number: /^0+$/.test(number) ? '' : number, street: m[2]!, unit };
}

/** ZIP codes an export stored as numbers lost their leading zero: `3768` → `03768`; `0` is none. */
export function restoreZip(text: string): string {
  const s = text.trim();
  if (/^0*$/.test(s)) return '';
  if (/^\d{4}$/.test(s) || /^\d{4}-\d{4}$/.test(s)) return `0${s}`;
  if (/^\d{8}$/.test(s)) return `0${s.slice(0, 4)}-${s.slice(4)}`;
  if (/^\d{9}$/.test(s)) return `${s.slice(0, 5)}-${s.slice(5)}`;
  return s;
}

// ─── deeds and parcels ──────────────────────────────────────────────────────────────────────────────

/** An all-digit part without its leading zeros (`020` → `20`, `000` → `0`); other parts as written. */
const dropZeros = (part: string) => (/^\d+$/.test(part) ? part.replace(/^0+(?=\d)/, '') : part);

/**
 * Book and page written in one cell, `BOOK/PAGE`: ` 40018/ 542` → 40018 and 542; `2013/0352` → 2013
 * and 352; `U56/7` → U56 and 7. Spaces go, leading zeros of all-digit parts go. A cell without `/` is
 * all book; `/` alone is neither.
 */
export function splitBookPage(text: string): { book: string; page: string } {
  const s = text.replace(/\s+/g, '');
  const at = s.indexOf('/');
  if (at === -1) return { book: dropZeros(s), page: '' };
  return { book: dropZeros(s.slice(0, at)), page: dropZeros(s.slice(at + 1)) };
}

/**
 * Map/lot from its parts, or from one cell with the parts separated by `/` (Vision's MBLU,
 * `020/ 003/ 082/ /`): spaces trimmed, empty parts dropped, leading zeros of all-digit parts dropped,
 * parts joined by `-`. `020/ 003/ 082/ /` → `20-3-82`; parts `R03`, `012` → `R03-12`.
 */
export function mapLot(parts: string[]): string {
  return parts
    .flatMap((p) => p.split('/'))
    .map((p) => dropZeros(p.trim()))
    .filter((p) => p !== '')
    .join('-');
}

/**
 * Text made fit for an account number (letters, digits, `.`, `_`, `-`): any other run of characters
 * becomes one `-`. `8-61 #PH10` → `8-61-PH10`.
 */
export function accountText(text: string): string {
  return text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-._]+|-+$/g, '');
}
