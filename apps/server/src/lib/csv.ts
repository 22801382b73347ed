/*
 * CSV that is safe to open in a spreadsheet (RFC 4180: comma separated, CRLF line ends). Every CSV the
 * portal writes goes through `csvRow`, so the rules live here once:
 *
 * - Every text cell is quoted, so a separator inside it (a comma, or the `;` a spreadsheet in another
 *   locale splits on: `x;=1+2;y`) can never start a new cell. Numbers are written bare.
 * - A text cell whose first character is a tab or CR, or whose first character after any blanks
 *   (spaces, line breaks, no-break and other Unicode spaces) and invisible characters (format
 *   characters such as the soft hyphen, zero-width joiners, bidirectional marks and invisible
 *   operators, and every other default-ignorable code point) is `=`, `+`, `-` or `@` in any of its
 *   compatibility forms (full-width `＝`, small `﹦`…), is something a spreadsheet may run as a formula
 *   (OWASP "CSV Injection"). It is prefixed with an apostrophe, which the spreadsheet shows as text and
 *   does not display.
 *
 * csv-stringify's `escape_formulas` looks at the first character only (not past blanks), which is the
 * gap this module closes; the quoting itself is two lines, not worth a dependency.
 */

export type CsvCell = string | number | null;

/**
 * What a spreadsheet may skip before deciding a cell is a formula: JS `\s` (NBSP, U+2000–U+200A,
 * U+3000…), format characters (Cf: U+00AD, U+061C, U+200B–U+200F, U+2060–U+2064, U+FEFF…) and the rest of
 * the default-ignorable code points (variation selectors, fillers).
 */
const LEADING_BLANKS = /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}]*/u;
/** Compared after NFKC, which folds the full-width and small forms (`＝`, `﹦`, `﹢`, `﹣`, `＠`…) to these. */
const FORMULA_START = /^[=+\-@]/;

/** Whether a spreadsheet could take this text for a formula. */
export function startsFormula(text: string): boolean {
  if (/^[\t\r]/.test(text)) return true;
  const rest = text.replace(LEADING_BLANKS, '');
  return FORMULA_START.test(rest.slice(0, 4).normalize('NFKC'));
}

/** One cell as CSV text: numbers bare (non-finite ones empty), null empty, text quoted and neutralised. */
export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = startsFormula(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One row, with its CRLF line end. */
export const csvRow = (cells: readonly CsvCell[]) => `${cells.map(csvCell).join(',')}\r\n`;
