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

/*
 * Reading COPY's text format (Database.copyTo): what PostgreSQL writes. Rows end with a line break and
 * columns with a tab; neither occurs inside a value, which escapes them (and backslash, backspace, form
 * feed, vertical tab) with a backslash. Output never uses the octal or hex escapes input accepts.
 */

const UNESCAPES: Record<string, string> = {
  '\\': '\\',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};
const ESCAPED = /\\(.)/gs;

/** A column's value as COPY wrote it: `\N` is null, escapes undone (most values have none). */
export function readCopyText(field: string): string | null {
  if (field === COPY_NULL) return null;
  return field.includes('\\') ? field.replace(ESCAPED, (_, c: string) => UNESCAPES[c] ?? c) : field;
}

/**
 * The elements of a one-dimensional text[] as PostgreSQL writes it (`{a,"b c","d\"e"}`), after
 * readCopyText. An element is quoted when it is empty, holds a space, comma, brace, quote or backslash,
 * or reads NULL; inside quotes a backslash keeps the next character. A NULL element is an error: the
 * arrays read this way never hold one.
 */
export function readTextArray(literal: string): string[] {
  if (literal.charCodeAt(0) !== 123 /* { */ || literal.charCodeAt(literal.length - 1) !== 125 /* } */)
    throw new Error(`not a one-dimensional array: ${literal.slice(0, 40)}`);
  const out: string[] = [];
  const end = literal.length - 1;
  let i = 1;
  while (i < end) {
    if (literal.charCodeAt(i) === 34 /* " */) {
      let value = '';
      let from = ++i;
      for (;;) {
        const c = literal.charCodeAt(i);
        if (c === 92 /* \ */) {
          value += literal.slice(from, i);
          from = i + 1;
          i += 2;
        } else if (c === 34) {
          value += literal.slice(from, i);
          i++;
          break;
        } else if (i >= end) throw new Error(`unterminated array element: ${literal.slice(0, 40)}`);
        else i++;
      }
      out.push(value);
    } else {
      let stop = literal.indexOf(',', i);
      if (stop === -1) stop = end;
      const value = literal.slice(i, stop);
      if (value === 'NULL') throw new Error('a NULL array element');
      out.push(value);
      i = stop;
    }
    i++; // the comma (or, after the last element, onto the closing brace)
  }
  return out;
}
