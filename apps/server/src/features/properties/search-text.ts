/*
 * Text normalisation shared by indexing (import) and querying (search), so both sides agree on what a
 * "word" is. Case and accents are folded; separators split words; other punctuation inside a word is
 * dropped, and the pieces it separated are indexed too, so `O'BRIEN`, `OBRIEN` and `BRIEN` all match,
 * and `R01-002-A` is found by `R01-0`, `r01002a` and `002`. A word that names an address part several
 * ways (street suffixes, ordinals: street-words.ts) is indexed as one word for all of them, and a typed
 * one is read as that word, so `212 Third Street` and `212 3rd St` both find
 * `212 THIRD ST`.
 */
import { canonicalWord, halfTypedReadings, isUnitWord, queryWord } from './street-words.ts';

const SEPARATORS = /[\s,;/&+()[\]{}|]+/u;
const NON_ALNUM = /[^\p{L}\p{N}]+/gu;
const MAX_TOKEN = 100;
const PLAIN_WORD = /^[a-z0-9]+$/;
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** Lower case, accents removed (é → e), NFKC-compatible characters folded. */
export function fold(s: string): string {
  // ASCII (nearly every roll's text) has nothing to decompose: lower case is the whole fold.
  if (ASCII.test(s)) return s.toLowerCase();
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * One query word: `term` is what the word index matches as a prefix (letters and digits only), `word`
 * what it matches as a whole word (a finished word of a type-ahead entry). `code` is set for a
 * word that joins digits to other characters with punctuation, such as `R01-0` or `12-14`: typed that
 * way it names a map/lot, account, street number or book-page, so it must also start one of those as
 * typed (see `codeKey`), not merely match the letters and digits somewhere.
 */
export interface QueryPart {
  term: string;
  word: string;
  code: string | null;
  /** What the word may also stand for when read as a prefix (street-words.ts halfTypedReadings). */
  readings: string[];
}

/**
 * The query's words, less a unit word ("unit", "apt", …: street-words.ts) followed by another word: "303
 * Third St Unit 212" and "303 THIRD ST, UNIT 212" (an address as the portal prints it) name apartment 212,
 * which a roll holds as `212` or `#212`. A unit word being typed last stays (it may begin "United").
 */
export function queryParts(query: string): QueryPart[] {
  const out: QueryPart[] = [];
  const raws = fold(query)
    .split(SEPARATORS)
    .map((raw) => ({ raw, typed: toAscii(raw.replace(NON_ALNUM, '')).slice(0, MAX_TOKEN) }))
    .filter((w) => w.typed !== '');
  for (const [i, { raw, typed }] of raws.entries()) {
    if (i < raws.length - 1 && isUnitWord(typed)) continue;
    const code = codeKey(raw).slice(0, MAX_TOKEN);
    out.push({
      term: queryWord(typed),
      word: queryWord(typed, true),
      code: /\d/.test(code) && /[a-z0-9]-[a-z0-9]/.test(code) ? code : null,
      readings: halfTypedReadings(typed),
    });
  }
  return out;
}

/**
 * A code as compared by punctuation: case folded, every run of other characters one `-`, none leading.
 * `R01-002-A`, `r01.002.a` and `R01 - 002/A` all read `r01-002-a`. The SQL side mirrors this with
 * `ltrim(regexp_replace(lower(x), '[^a-z0-9]+', '-', 'g'), '-')`.
 */
export function codeKey(value: string): string {
  const folded = fold(value);
  // Most codes (`001-001`, `74`, `35340-126`) already read that way.
  if (CODE_FORM.test(folded)) return folded;
  return folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+/, '');
}

const CODE_FORM = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Words indexed for one field value. */
export function indexTerms(value: string | null | undefined, into: Set<string>): void {
  if (!value) return;
  // ASCII text (nearly every roll's): words cut by a scan instead of a Unicode-aware split (an import
  // indexes about ten values a record).
  if (ASCII.test(value)) {
    asciiTerms(value.toLowerCase(), into);
    return;
  }
  for (const raw of fold(value).split(SEPARATORS)) if (raw) wordTerms(raw, into);
}

/** ASCII characters in SEPARATORS: whitespace and `,;/&+()[]{}|`. */
const ASCII_SEPARATOR = (() => {
  const table = new Uint8Array(128);
  for (const c of '\t\n\v\f\r ,;/&+()[]{}|') table[c.charCodeAt(0)] = 1;
  return table;
})();

/** indexTerms of lower-case ASCII text: what splitting it by SEPARATORS and wordTerms give, in order. */
function asciiTerms(text: string, into: Set<string>) {
  let start = 0;
  let plain = true;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) continue;
    if (ASCII_SEPARATOR[c] === 1) {
      if (i > start) {
        const raw = text.slice(start, i);
        if (plain) addWord(raw.slice(0, MAX_TOKEN), into);
        else wordTerms(raw, into);
      }
      start = i + 1;
      plain = true;
    } else plain = false;
  }
}

/** The indexed words of one word between separators. */
function wordTerms(raw: string, into: Set<string>) {
  // Most words are letters and digits alone: nothing to drop, nothing to split.
  if (PLAIN_WORD.test(raw)) {
    addWord(raw.slice(0, MAX_TOKEN), into);
    return;
  }
  const joined = toAscii(raw.replace(NON_ALNUM, '')).slice(0, MAX_TOKEN);
  if (joined) addWord(joined, into);
  const parts = raw.split(NON_ALNUM);
  if (parts.length > 1) {
    for (const p of parts) {
      const t = toAscii(p).slice(0, MAX_TOKEN);
      if (t) addWord(t, into);
    }
  }
}

/** One indexed word, as the one word of its class when it names an address part several ways. */
function addWord(word: string, into: Set<string>) {
  into.add(canonicalWord(word));
}

/**
 * tsvector words must survive PostgreSQL's 'simple' parser unchanged on both engines, so only ASCII
 * letters and digits reach it (letters outside ASCII that fold() could not map are dropped).
 */
function toAscii(s: string): string {
  return s.replace(/[^a-z0-9]/g, '');
}

/**
 * A tsquery for the terms: every term as a prefix ('smith:* & main:*'), and each group of choices as
 * any of its prefixes ('(3r:* | third:*)'). Terms are [a-z0-9]+ only.
 */
export function prefixTsQuery(terms: string[], choices: string[][] = []): string {
  return [
    ...terms.map((t) => `${t}:*`),
    ...choices.map((group) => `(${group.map((t) => `${t}:*`).join(' | ')})`),
  ].join(' & ');
}

/**
 * Sort key in natural order, compared bytewise: digit runs are zero-padded so "2-10" < "10-1" and
 * "9 Main" < "10 Main". Null for an empty value (empty values sort last).
 */
export function naturalKey(value: string | null | undefined): string | null {
  if (value == null) return null;
  let folded = fold(value);
  // An import makes five of these a record: the common value (single spaces, a digit run or two) skips
  // the regular expressions that would change nothing in it.
  if (UNTIDY_SPACE.test(folded)) folded = folded.replace(/\s+/g, ' ').trim();
  if (!folded) return null;
  return HAS_DIGIT.test(folded) ? padDigitRuns(folded) : folded;
}

/** Whitespace that tidying would change: a run, a character other than the space, or at either end. */
const UNTIDY_SPACE = /\s\s|[^\S ]|^\s|\s$/;
const HAS_DIGIT = /\d/;
const PAD = '000000000000';

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Every run of digits without its leading zeros (one kept) and padded to 12 digits, as naturalKey sorts them. */
function padDigitRuns(s: string): string {
  let out = '';
  let i = 0;
  while (i < s.length) {
    let j = i;
    if (!isDigit(s.charCodeAt(i))) {
      while (j < s.length && !isDigit(s.charCodeAt(j))) j++;
      out += s.slice(i, j);
    } else {
      while (j < s.length && isDigit(s.charCodeAt(j))) j++;
      let from = i;
      while (from < j - 1 && s.charCodeAt(from) === 48) from++;
      const digits = j - from;
      out += digits >= PAD.length ? s.slice(from, j) : PAD.slice(digits) + s.slice(from, j);
    }
    i = j;
  }
  return out;
}
