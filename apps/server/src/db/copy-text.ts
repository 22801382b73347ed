/*
 * Values in PostgreSQL's COPY text format (a row a line, columns separated by tabs, `\N` for null,
 * backslash escapes), for Database.copyFrom. Both engines read the same bytes.
 */

/**
 * Input for Database.copyFrom: text, its UTF-8 bytes, or those bytes in pieces (in order, each ending
 * at a line break), which are handed on as they are rather than joined first.
 */
export type CopyInput = string | Uint8Array | readonly Uint8Array[];

/** The input as a list of pieces, in order (one piece when it came whole). */
export function copyPieces(data: CopyInput): readonly (string | Uint8Array)[] {
  return typeof data === 'string' || data instanceof Uint8Array ? [data] : data;
}

export const COPY_NULL = '\\N';

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A text value: backslash, tab and line breaks escaped (most values have none: tested first). */
export function copyText(value: string | null): string {
  if (value === null) return COPY_NULL;
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPES[c]!) : value;
}

/**
 * JSON text (from JSON.stringify, which escapes every control character): only its backslashes need
 * doubling.
 */
export function copyJson(json: string): string {
  return json.includes('\\') ? json.replaceAll('\\', '\\\\') : json;
}

/** A finite number as float8 input; null as null. */
export function copyNumber(value: number | null): string {
  if (value === null) return COPY_NULL;
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return String(value);
}

export function copyBoolean(value: boolean): string {
  return value ? 't' : 'f';
}

const QUOTE_OR_BACKSLASH = /["\\]/;

/** A text[] value: every element quoted, so commas, braces, spaces and the word NULL stay text. */
export function copyTextArray(values: readonly string[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) literal += ',';
    const v = values[i]!;
    literal += `"${QUOTE_OR_BACKSLASH.test(v) ? v.replace(/["\\]/g, '\\$&') : v}"`;
  }
  return copyText(`${literal}}`);
}

const PLAIN_LEXEME = /^[a-z0-9]+$/;

/**
 * A tsvector of these lexemes, without positions (nothing ranks or matches phrases). Lexemes of ASCII
 * letters and digits, all the importer produces, are written bare; anything else is quoted.
 */
export function tsvectorLiteral(lexemes: readonly string[]): string {
  let literal = '';
  for (let i = 0; i < lexemes.length; i++) {
    const lexeme = lexemes[i]!;
    if (i > 0) literal += ' ';
    literal += PLAIN_LEXEME.test(lexeme) ? lexeme : `'${lexeme.replace(/['\\]/g, '$&$&')}'`;
  }
  return literal;
}

export function copyTsvector(lexemes: readonly string[]): string {
  return copyText(tsvectorLiteral(lexemes));
}
