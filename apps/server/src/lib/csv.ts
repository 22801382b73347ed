/*
 * CSV that is safe to open in a spreadsheet (RFC 4180: comma separated, CRLF line ends). Every CSV the
 * portal writes goes through `csvRow`, so the rules live here once:
 *
 * - Every text cell is quoted, so a separator inside it (a comma, or the `;` a spreadsheet in another
 *   locale splits on: `x;=1+2;y`) can never start a new cell. Numbers are written bare.
 * - A text cell whose first character is a tab or CR, or whose first character after any blanks
 *   (spaces, line breaks, no-break and other Unicode spaces) is `=`, `+`, `-` or `@` (or their
 *   full-width forms), is something a spreadsheet may run as a formula (OWASP "CSV Injection"). It is
 *   prefixed with an apostrophe, which the spreadsheet shows as text and does not display.
 *
 * csv-stringify's `escape_formulas` looks at the first character only (not past blanks), which is the
 * gap this module closes; the quoting itself is two lines, not worth a dependency.
 */

export type CsvCell = string | number | null;

/** Blanks a spreadsheet skips before deciding a cell is a formula: JS `\s` covers NBSP, U+2000–U+200A, U+3000. */
const LEADING_BLANKS = /^[\s\u200b\u2060\ufeff]*/;
const FORMULA_START = /^[=+\-@\uff1d\uff0b\uff0d\uff20]/;

/** Whether a spreadsheet could take this text for a formula. */
export function startsFormula(text: string): boolean {
  if (/^[\t\r]/.test(text)) return true;
  return FORMULA_START.test(text.replace(LEADING_BLANKS, ''));
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
