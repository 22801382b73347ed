import { SORT_COLUMNS, type SortColumn } from '@opp/contracts';
import type { SearchCriteria, SortKey } from '../search.repository.ts';
import {
  INDEX_COLUMNS,
  SEARCH_COLUMNS,
  type FilterSpec,
  type IndexColumn,
  type IndexKind,
} from '../search-columns.ts';
import { Grow, packTexts } from '../../../lib/typed-columns.ts';
import { generated, keyLiteral } from '../../../lib/generated-code.ts';

/*
 * An in-process, immutable index of one published roll: everything a search, a suggest or an export
 * needs to decide which parcels match and in which order, in typed arrays. The database then serves only
 * the summaries of the rows shown (by primary key). A roll never changes once published, so the index
 * can never go stale; each API node builds its own.
 *
 * Rows are numbered in account order (`account_key`, then `account`: the tie-break of every sort), so a
 * row number compares as the tie-break does.
 */

/**
 * One parcel as the builder reads it from the database: a value per index column (search-columns.ts),
 * by field, as INDEX_READERS read it.
 */
export interface IndexSourceRow {
  account: string;
  [field: string]: unknown;
}

/** Results up to this size are sorted after matching; larger ones walk the cached order of the sort. */
const SORT_MATCHES_UP_TO = 2_000;
/**
 * Cached orders: every single-column sort both ways (an ascending one is a Uint32Array of the roll's
 * size, a descending one reads it) and six more (of several columns: an array each).
 */
const MAX_CACHED_ORDERS = SORT_COLUMNS.length * 2 + 6;

const growF64 = () => new Grow((n) => new Float64Array(n));

class GrowU32 extends Grow<Uint32Array> {
  constructor() {
    super((n) => new Uint32Array(n));
  }
}

/** Values a text column holds per chunk, before they are joined into one string. */
const TEXT_CHUNK = 4096;

/**
 * A column of text values held as a few large strings (each chunk of values joined, with the end of every
 * value kept) rather than a string per row: a million short strings cost about 40 bytes each in V8, a
 * chunk one byte a character (two where a value is beyond Latin-1). The values come back out one column at a time, when the index is built.
 */
class TextColumn {
  private pending: string[] = [];
  private pendingLength = 0;
  private readonly chunks: string[] = [];
  /** Where each value ends within its chunk. */
  private readonly ends = new GrowU32();
  private readonly nullRows = new GrowU32();
  length = 0;

  push(value: string | null) {
    if (value === null || value === undefined) {
      this.nullRows.push(this.length);
      value = '';
    }
    this.pending.push(value);
    this.pendingLength += value.length;
    this.ends.push(this.pendingLength);
    this.length++;
    if (this.pending.length === TEXT_CHUNK) this.seal();
  }

  private seal() {
    if (this.pending.length === 0) return;
    this.chunks.push(this.pending.join(''));
    this.pending = [];
    this.pendingLength = 0;
  }

  /** Every value, in the order pushed; the column is empty afterwards (its text is garbage sooner). */
  take(): Array<string | null> {
    this.seal();
    const out: Array<string | null> = new Array<string | null>(this.length);
    const ends = this.ends.data;
    let i = 0;
    for (const chunk of this.chunks) {
      let start = 0;
      for (let k = 0; k < TEXT_CHUNK && i < this.length; k++, i++) {
        const end = ends[i]!;
        out[i] = chunk.slice(start, end);
        start = end;
      }
    }
    const nulls = this.nullRows.data;
    for (let k = 0; k < this.nullRows.length; k++) out[nulls[k]!] = null;
    this.chunks.length = 0;
    this.ends.clear();
    this.nullRows.clear();
    this.length = 0;
    return out;
  }
}

/**
 * String order as PostgreSQL's `collate "C"` compares (UTF-8 bytes, i.e. code points). JavaScript's `<`
 * compares UTF-16 code units, which differs only when a character outside the Basic Multilingual Plane
 * meets one in U+E000–U+FFFF; only strings holding a surrogate take the slow path.
 */
const SURROGATE = /[\uD800-\uDFFF]/;
export function compareC(a: string, b: string): number {
  if (a === b) return 0;
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : 1;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

const dayOf = (isoDate: string) => {
  const [y, m, d] = isoDate.slice(0, 10).split('-').map(Number);
  return Date.UTC(y!, m! - 1, d!) / 86_400_000;
};

/** Permutes a CSR list (per-row slices) into a new row order. */
function permuteCsr(off: Uint32Array, data: Uint32Array, loadOfRow: Uint32Array) {
  const n = loadOfRow.length;
  const newOff = new Uint32Array(n + 1);
  for (let r = 0; r < n; r++) {
    const l = loadOfRow[r]!;
    newOff[r + 1] = newOff[r]! + (off[l + 1]! - off[l]!);
  }
  const newData = new Uint32Array(newOff[n]!);
  for (let r = 0; r < n; r++) {
    const l = loadOfRow[r]!;
    newData.set(data.subarray(off[l]!, off[l + 1]!), newOff[r]!);
  }
  return { off: newOff, data: newData };
}

function permuteF64(values: Float64Array, loadOfRow: Uint32Array) {
  const out = new Float64Array(loadOfRow.length);
  for (let r = 0; r < loadOfRow.length; r++) out[r] = values[loadOfRow[r]!]!;
  return out;
}

function permuteRanks(ranks: Uint32Array | Uint16Array, loadOfRow: Uint32Array) {
  const out =
    ranks instanceof Uint16Array ? new Uint16Array(loadOfRow.length) : new Uint32Array(loadOfRow.length);
  for (let r = 0; r < loadOfRow.length; r++) out[r] = ranks[loadOfRow[r]!]!;
  return out;
}

/** Dense ranks (0..R-1, nulls = R) of a column, so every sort compares small integers. */
interface Ranks {
  /** Two bytes a row when R fits (sale dates, acres in most rolls), else four. */
  ranks: Uint32Array | Uint16Array;
  /** R: the number of distinct non-null values; also the rank of a null. */
  distinct: number;
}

const narrowRanks = (ranks: Uint32Array, distinct: number): Ranks => ({
  ranks: distinct <= 0xffff ? Uint16Array.from(ranks) : ranks,
  distinct,
});

/** A numeric column; NaN is null. */
type Column = Float64Array | Float32Array;

/**
 * The column in four bytes a row when every value survives the conversion exactly (whole days, counts,
 * areas, prices under 16,777,216), else as it is: a filter compares the very same numbers either way.
 */
function compactColumn(values: Float64Array): Column {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === v && Math.fround(v) !== v) return values;
  }
  return Float32Array.from(values);
}

/**
 * Dense ranks of a text column in collate "C" order (nulls after every value). The rows are sorted by
 * their values, with no set or map of the values: for a column of a million mostly distinct values
 * those were 100 MB more at the moment the build thread held the most.
 */
export function textRanks(values: Array<string | null>): Ranks {
  const rows: number[] = [];
  for (let i = 0; i < values.length; i++) if (values[i] !== null && values[i] !== undefined) rows.push(i);
  const wide = rows.some((row) => SURROGATE.test(values[row]!));
  rows.sort(
    wide
      ? (a, b) => compareC(values[a]!, values[b]!)
      : (a, b) => {
          const x = values[a]!;
          const y = values[b]!;
          return x < y ? -1 : x > y ? 1 : 0;
        },
  );
  const ranks = new Uint32Array(values.length);
  let distinct = 0;
  for (let k = 0; k < rows.length; k++) {
    if (k > 0 && values[rows[k]!] !== values[rows[k - 1]!]) distinct++;
    ranks[rows[k]!] = distinct;
  }
  if (rows.length > 0) distinct++;
  for (let i = 0; i < values.length; i++)
    if (values[i] === null || values[i] === undefined) ranks[i] = distinct;
  return narrowRanks(ranks, distinct);
}

function numberRanks(values: Float64Array): Ranks {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort();
  let u = 0;
  for (let i = 0; i < sorted.length; i++)
    if (i === 0 || sorted[i] !== sorted[u - 1]) sorted[u++] = sorted[i]!;
  const unique = sorted.subarray(0, u);
  const ranks = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) {
      ranks[i] = u;
      continue;
    }
    let lo = 0;
    let hi = u;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (unique[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    ranks[i] = lo;
  }
  return narrowRanks(ranks, u);
}

/** A dictionary of values (land types, building styles) and each row's ids of them. */
interface ValueLists {
  values: string[];
  off: Uint32Array;
  ids: Uint32Array;
  /** Inverted: the rows holding each value (CSR by value id, rows ascending). */
  rowOff: Uint32Array;
  rows: Uint32Array;
}

/** The rows in ascending order of a dense rank (ties by row). */
function orderByRanks(ranks: Uint32Array | Uint16Array): Uint32Array {
  const n = ranks.length;
  const keys = new Float64Array(n);
  for (let row = 0; row < n; row++) keys[row] = ranks[row]! * n + row;
  keys.sort();
  return Uint32Array.from(keys, (v) => v % n);
}

/** The rows whose flags include `bit`. */
function rowsWith(flags: Uint8Array, bit: number): Uint32Array {
  const out = new GrowU32();
  for (let row = 0; row < flags.length; row++) if (flags[row]! & bit) out.push(row);
  return out.trimmed();
}

/**
 * The distinct words of a roll, numbered 0, 1, 2, … in the order first seen, held in typed arrays: their
 * characters end to end, where each starts, and an open-addressing hash table of ids. A Map and a string
 * per word cost about 80 bytes a word; the benchmark's county of a million parcels has 2.7 million
 * distinct words (account, map/lot and book/page numbers, mostly), and that Map was 210 MB of the build
 * thread's 310 MB. Here a word costs its characters (a byte each, two beyond Latin-1) and about 16 bytes
 * besides.
 */
export class WordDictionary {
  /** One byte a character while every word is Latin-1 (nearly always), two once one is not. */
  private chars: Uint8Array | Uint16Array = new Uint8Array(1 << 16);
  private charCount = 0;
  /** Word i is chars[starts[i], starts[i + 1]). */
  private readonly starts = new GrowU32();
  private readonly hashes = new GrowU32();
  /** Slot → id + 1 (0: empty); at most half full. */
  private table = new Uint32Array(1 << 12);

  constructor() {
    this.starts.push(0);
  }

  get size(): number {
    return this.hashes.length;
  }

  /** The word's id, numbering it when new. */
  id(word: string): number {
    const hash = hashWord(word);
    const mask = this.table.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.table[slot]!;
      if (entry === 0) break;
      if (this.hashes.data[entry - 1] === hash && this.equals(entry - 1, word)) return entry - 1;
    }
    const id = this.hashes.length;
    this.append(word);
    this.starts.push(this.charCount);
    this.hashes.push(hash);
    if ((id + 1) * 2 > this.table.length) this.rehash(this.table.length * 2);
    else this.place(id);
    return id;
  }

  /**
   * The ids in the order of their words, as sort() orders strings (by UTF-16 code unit), compared where
   * they are held: a string per word would be 75 MB more for a million-parcel county, for a moment.
   */
  sortedIds(): Uint32Array {
    const { chars } = this;
    const starts = this.starts.data;
    const ids = Array.from({ length: this.size }, (_, id) => id);
    ids.sort((a, b) => {
      let i = starts[a]!;
      let j = starts[b]!;
      const iEnd = starts[a + 1]!;
      const jEnd = starts[b + 1]!;
      for (; i < iEnd && j < jEnd; i++, j++) {
        const d = chars[i]! - chars[j]!;
        if (d !== 0) return d;
      }
      return iEnd - i - (jEnd - j);
    });
    return Uint32Array.from(ids);
  }

  /** The words in the given order, end to end, and where each ends (lexOff[k + 1]). */
  lexicon(order: Uint32Array): { text: string; lexOff: Uint32Array } {
    const { chars } = this;
    const starts = this.starts.data;
    const out =
      chars instanceof Uint16Array ? new Uint16Array(this.charCount) : new Uint8Array(this.charCount);
    const lexOff = new Uint32Array(order.length + 1);
    let at = 0;
    for (let k = 0; k < order.length; k++) {
      const id = order[k]!;
      for (let c = starts[id]!; c < starts[id + 1]!; c++) out[at++] = chars[c]!;
      lexOff[k + 1] = at;
    }
    const bytes = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
    return { text: bytes.toString(out instanceof Uint16Array ? 'utf16le' : 'latin1'), lexOff };
  }

  /** Forgets every word. */
  clear() {
    this.chars = new Uint8Array(0);
    this.charCount = 0;
    this.starts.clear();
    this.hashes.clear();
    this.table = new Uint32Array(0);
  }

  private append(word: string) {
    let wide = this.chars instanceof Uint16Array;
    if (!wide) for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) > 0xff) wide = true;
    const need = this.charCount + word.length;
    if (need > this.chars.length || (wide && this.chars instanceof Uint8Array)) {
      // Doubled when full (amortised appends); the same size when only widening to 16-bit characters.
      const size = need > this.chars.length ? Math.max(this.chars.length * 2, need) : this.chars.length;
      const grown = wide ? new Uint16Array(size) : new Uint8Array(size);
      grown.set(this.chars.subarray(0, this.charCount));
      this.chars = grown;
    }
    for (let i = 0; i < word.length; i++) this.chars[this.charCount++] = word.charCodeAt(i);
  }

  private equals(id: number, word: string): boolean {
    const start = this.starts.data[id]!;
    if (this.starts.data[id + 1]! - start !== word.length) return false;
    for (let i = 0; i < word.length; i++) if (this.chars[start + i] !== word.charCodeAt(i)) return false;
    return true;
  }

  private place(id: number) {
    const mask = this.table.length - 1;
    let slot = this.hashes.data[id]! & mask;
    while (this.table[slot] !== 0) slot = (slot + 1) & mask;
    this.table[slot] = id + 1;
  }

  private rehash(slots: number) {
    this.table = new Uint32Array(slots);
    for (let id = 0; id < this.hashes.length; id++) this.place(id);
  }
}

/** FNV-1a over the UTF-16 code units, 32 bits. */
function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Numbers distinct strings 0, 1, 2, … in the order they are first seen. */
class Dictionary {
  private readonly idOf = new Map<string, number>();
  readonly values: string[] = [];
  id(value: string): number {
    let id = this.idOf.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.idOf.set(value, id);
      this.values.push(value);
    }
    return id;
  }
}

class ValueListsBuilder {
  private readonly dictionary = new Dictionary();
  readonly values = this.dictionary.values;
  off = new GrowU32();
  ids = new GrowU32();
  constructor() {
    this.off.push(0);
  }
  add(list: string[]) {
    for (const v of list) this.ids.push(this.dictionary.id(v));
    this.off.push(this.ids.length);
  }
  finish(loadOfRow: Uint32Array): ValueLists {
    const p = permuteCsr(this.off.trimmed(), this.ids.trimmed(), loadOfRow);
    const v = this.values.length;
    const rowOff = new Uint32Array(v + 1);
    for (let i = 0; i < p.data.length; i++) rowOff[p.data[i]! + 1]!++;
    for (let i = 0; i < v; i++) rowOff[i + 1]! += rowOff[i]!;
    const rows = new Uint32Array(p.data.length);
    const fill = rowOff.slice(0, v);
    for (let row = 0; row < loadOfRow.length; row++)
      for (let j = p.off[row]!; j < p.off[row + 1]!; j++) rows[fill[p.data[j]!]!++] = row;
    return { values: this.values, off: p.off, ids: p.data, rowOff, rows };
  }
}

/** A list of numbers per row, and every (value, row) in ascending order of value (ties by row). */
interface NumberLists {
  off: Uint32Array;
  values: Column;
  sortedValues: Column;
  sortedRows: Uint32Array;
}

class NumberListsBuilder {
  off = new GrowU32();
  values = growF64();
  constructor() {
    this.off.push(0);
  }
  add(list: number[]) {
    for (const v of list) this.values.push(v);
    this.off.push(this.values.length);
  }
  finish(loadOfRow: Uint32Array): NumberLists {
    const n = loadOfRow.length;
    const srcOff = this.off.data;
    const src = this.values.data;
    const off = new Uint32Array(n + 1);
    for (let r = 0; r < n; r++) {
      const l = loadOfRow[r]!;
      off[r + 1] = off[r]! + (srcOff[l + 1]! - srcOff[l]!);
    }
    const values = new Float64Array(off[n]!);
    const rowOf = new Uint32Array(off[n]!);
    for (let r = 0; r < n; r++) {
      const l = loadOfRow[r]!;
      values.set(src.subarray(srcOff[l]!, srcOff[l + 1]!), off[r]!);
      rowOf.fill(r, off[r]!, off[r + 1]!);
    }
    this.off.clear();
    this.values.clear();
    // rank * E + entry sorts the entries by value, then entry (that is, row), as one Float64Array.
    const e = values.length;
    const { ranks } = numberRanks(values);
    const keys = new Float64Array(e);
    for (let j = 0; j < e; j++) keys[j] = ranks[j]! * e + j;
    keys.sort();
    const byKey = Uint32Array.from(keys, (k) => k % e);
    return {
      off,
      values: compactColumn(values),
      sortedValues: compactColumn(Float64Array.from(byKey, (j) => values[j]!)),
      sortedRows: Uint32Array.from(byKey, (j) => rowOf[j]!),
    };
  }
}

const columnsOf = (...kinds: IndexKind[]) => INDEX_COLUMNS.filter((c) => kinds.includes(c.index));

/** Each flag column's bit in a row's flags. */
const FLAG_BIT: Record<string, number> = Object.fromEntries(
  columnsOf('flag').map((c, i) => [c.field, 1 << i]),
);

/** Reads a roll's rows (in any order) and produces the index. */
export class RollIndexBuilder {
  private readonly accounts = new TextColumn();
  private readonly accountKeys = new TextColumn();
  private readonly texts = new Map<string, TextColumn>(
    columnsOf('text').map((c) => [c.field, new TextColumn()]),
  );
  private readonly numbers = new Map(columnsOf('number', 'day').map((c) => [c.field, growF64()]));
  private readonly flags = new Grow((n) => new Uint8Array(n));
  private readonly lists = new Map(columnsOf('values').map((c) => [c.field, new ValueListsBuilder()]));
  private readonly numberLists = new Map(
    columnsOf('numbers').map((c) => [c.field, new NumberListsBuilder()]),
  );
  private readonly words = new WordDictionary();
  private readonly fwdOff = new GrowU32();
  private readonly fwd = new GrowU32();
  /** Each row's codes, each followed by NUL: a prefix (no NUL in it) can only match within one code. */
  private readonly codes = new TextColumn();

  constructor(readonly rollId: number) {
    this.fwdOff.push(0);
  }

  get size() {
    return this.accounts.length;
  }

  /** Adds a row (its values as readIndexRows gives them). */
  readonly add: (r: IndexSourceRow) => void = this.compileAdd();

  /**
   * `add`, compiled once into straight-line code: a call per column to the store its kind keeps, with
   * the row's fields read by constant keys (a loop over the columns made building a county's index
   * three quarters slower). Keys come from INDEX_COLUMNS, never from input.
   */
  private compileAdd(): (r: IndexSourceRow) => void {
    let flagsSeen = 0;
    const store = (c: IndexColumn): ((v: unknown) => void) => {
      switch (c.index) {
        case 'account':
          return (v) => this.accounts.push(v as string);
        case 'accountKey':
          return (v) => this.accountKeys.push(v as string);
        case 'text': {
          const column = this.texts.get(c.field)!;
          return (v) => column.push(v as string | null);
        }
        case 'number': {
          const column = this.numbers.get(c.field)!;
          return (v) => column.push(v === null || v === undefined ? NaN : (v as number));
        }
        case 'day': {
          const column = this.numbers.get(c.field)!;
          return (v) => column.push(v ? dayOf(v as string) : NaN);
        }
        case 'flag': {
          const bit = FLAG_BIT[c.field]!;
          return (v) => {
            if (v) flagsSeen |= bit;
          };
        }
        case 'values': {
          const lists = this.lists.get(c.field)!;
          return (v) => lists.add(v as string[]);
        }
        case 'numbers': {
          const lists = this.numberLists.get(c.field)!;
          return (v) => lists.add(v as number[]);
        }
        case 'words':
          return (v) => {
            for (const w of v as string[]) this.fwd.push(this.words.id(w));
            this.fwdOff.push(this.fwd.length);
          };
        case 'codes':
          return (v) => {
            const codes = v as string[];
            this.codes.push(codes.length ? `${codes.join('\0')}\0` : '');
          };
      }
    };
    const endRow = () => {
      this.flags.push(flagsSeen);
      flagsSeen = 0;
    };
    const body = INDEX_COLUMNS.map((c, i) => `stores[${i}](r[${keyLiteral(c.field)}]);`).join('\n');
    return generated<(r: IndexSourceRow) => void>(
      { stores: INDEX_COLUMNS.map(store), endRow },
      `(r) => {\n${body}\nendRow();\n}`,
    );
  }

  /**
   * The index. Its steps (sorting keys and words of up to a million rows, each up to about a second) are
   * separated by `pause`, so a server can answer other requests between them. Called once: each step
   * empties what it has read of the builder, so a large build never holds its input and its output
   * whole at the same time.
   */
  async finish(pause: () => Promise<void> = async () => {}): Promise<RollIndex> {
    const n = this.accounts.length;
    // Words first: the dictionary is the largest thing the builder holds (2.7 million distinct words in
    // the benchmark's county of a million parcels), so it is renumbered and dropped before the sorts
    // below need their working memory. (Dropped last, it put the server's peak at 975–1,040 MB.) The
    // lexicon is in sorted order: a prefix's words are then one contiguous range of ids.
    const w = this.words.size;
    const sorted = this.words.sortedIds();
    const newId = new Uint32Array(w);
    for (let i = 0; i < w; i++) newId[sorted[i]!] = i;
    const { text: lexicon, lexOff } = this.words.lexicon(sorted);
    this.words.clear();
    // Renumbered in place: a trimmed copy would add the whole array again for a moment.
    const fwdRaw = this.fwd.data.subarray(0, this.fwd.length);
    for (let i = 0; i < fwdRaw.length; i++) fwdRaw[i] = newId[fwdRaw[i]!]!;
    await pause();
    // Account order: account_key bytewise, then the load order, which is the database's own order of
    // `account` (the builder reads the roll by primary key), as the SQL tie-break `account_key, account`.
    const accountRanks = textRanks(this.accountKeys.take()).ranks;
    const order = new Float64Array(n);
    for (let l = 0; l < n; l++) order[l] = accountRanks[l]! * n + l;
    order.sort();
    const loadOfRow = Uint32Array.from(order, (v) => v % n);
    await pause();
    const joinInRowOrder = (column: TextColumn) => {
      const values = column.take() as string[];
      return packTexts(Array.from(loadOfRow, (l) => values[l]!));
    };

    await pause();
    const forward = permuteCsr(this.fwdOff.data.subarray(0, this.fwdOff.length), fwdRaw, loadOfRow);
    this.fwd.clear();
    this.fwdOff.clear();
    const postOff = new Uint32Array(w + 1);
    for (let i = 0; i < forward.data.length; i++) postOff[forward.data[i]! + 1]!++;
    for (let i = 0; i < w; i++) postOff[i + 1]! += postOff[i]!;
    const postings = new Uint32Array(forward.data.length);
    const fill = postOff.slice(0, w);
    for (let row = 0; row < n; row++)
      for (let j = forward.off[row]!; j < forward.off[row + 1]!; j++)
        postings[fill[forward.data[j]!]!++] = row;
    await pause();

    const accounts = joinInRowOrder(this.accounts);
    await pause();
    const codes = joinInRowOrder(this.codes);
    await pause();

    const nums = new Map<string, Float64Array>();
    for (const [field, values] of this.numbers) {
      nums.set(field, permuteF64(values.data, loadOfRow));
      values.clear();
    }
    await pause();
    const ranks = {} as Record<SortColumn, Ranks>;
    // Each text column is taken out of its chunks, ranked and dropped before the next (its strings are the
    // largest transient of the build); ranks are dense, so ranking in load order then permuting is the same.
    for (const c of columnsOf('text')) {
      const r = textRanks(this.texts.get(c.field)!.take());
      ranks[c.sort!] = { ranks: permuteRanks(r.ranks, loadOfRow), distinct: r.distinct };
      await pause();
    }
    for (const c of columnsOf('number', 'day')) if (c.sort) ranks[c.sort] = numberRanks(nums.get(c.field)!);
    await pause();
    // A column's ascending order is also its sort order ascending (nulls last, ties by row): shared.
    const numbers: Record<string, Column> = {};
    const valueOrders: Record<string, Uint32Array> = {};
    const nonNull: Record<string, number> = {};
    for (const c of columnsOf('number', 'day')) {
      if (!c.filter) continue;
      const values = nums.get(c.field)!;
      valueOrders[c.field] = orderByRanks((c.sort ? ranks[c.sort] : numberRanks(values)).ranks);
      nonNull[c.field] = values.reduce((k, v) => (Number.isNaN(v) ? k : k + 1), 0);
      numbers[c.field] = compactColumn(values);
    }
    const flagsLoad = this.flags.data;
    const flags = Uint8Array.from(loadOfRow, (l) => flagsLoad[l]!);
    const flagRows: Record<string, Uint32Array> = {};
    for (const c of columnsOf('flag')) flagRows[c.field] = rowsWith(flags, FLAG_BIT[c.field]!);
    const lists: Record<string, ValueLists> = {};
    for (const [field, builder] of this.lists) lists[field] = builder.finish(loadOfRow);
    const numberLists: Record<string, NumberLists> = {};
    for (const [field, builder] of this.numberLists) numberLists[field] = builder.finish(loadOfRow);
    return new RollIndex({
      rollId: this.rollId,
      size: n,
      accountText: accounts.text,
      accOff: accounts.off,
      lexicon,
      lexOff,
      postOff,
      postings,
      codeText: codes.text,
      codeOff: codes.off,
      numbers,
      valueOrders,
      nonNull,
      flags,
      flagRows,
      lists,
      numberLists,
      ranks,
    });
  }
}

/** What an index is made of: typed arrays and strings only, so a build on another thread can send it. */
export interface RollIndexParts {
  rollId: number;
  size: number;
  accountText: string;
  accOff: Uint32Array;
  lexicon: string;
  lexOff: Uint32Array;
  postOff: Uint32Array;
  postings: Uint32Array;
  codeText: string;
  codeOff: Uint32Array;
  /** The values of each numeric filter column (by field), NaN for null. */
  numbers: Record<string, Column>;
  /** Each numeric filter column's rows in ascending order of value (nulls last). */
  valueOrders: Record<string, Uint32Array>;
  /** The number of rows with a value (not null) in each numeric filter column: the head of its order. */
  nonNull: Record<string, number>;
  flags: Uint8Array;
  /** The rows holding each flag column's flag. */
  flagRows: Record<string, Uint32Array>;
  lists: Record<string, ValueLists>;
  numberLists: Record<string, NumberLists>;
  ranks: Record<SortColumn, Ranks>;
  /** Ascending orders of single-column sorts computed already (by a build on another thread). */
  sortOrders?: Partial<Record<SortColumn, Uint32Array>>;
}

/** A word id range [lo, hi): the words one query term matches. */
type Range = [number, number];

/** Part of a list of rows. */
interface Slice {
  rows: Uint32Array;
  start: number;
  end: number;
}

/** The rows that may pass a condition (all that do, and maybe repeated: then deduplicated). */
interface Source {
  slices: Slice[];
  repeats: boolean;
}

interface Condition {
  check: (row: number) => boolean;
  source: Source | null;
  /** For words: the word id ranges, any of which (its check depends on how many candidates it will see). */
  words?: Range[];
}

/** The matches of a search: rows in no particular order, and a membership test valid until the next query. */
interface Matches {
  /** null: every row of the roll matches. Otherwise a view of the index's scratch space: valid until the next match. */
  rows: Uint32Array | null;
  count: number;
}

/** Rows in a sort's order: `row(p)` is the row at position p. */
interface RowOrder {
  row(position: number): number;
}

class ArrayOrder implements RowOrder {
  constructor(readonly rows: Uint32Array) {}
  row(position: number): number {
    return this.rows[position]!;
  }
}

/**
 * A column's descending order (nulls last, ties in row order) read off its ascending order (nulls last,
 * ties in row order): the groups of equal value in reverse, each group's rows still ascending, then the
 * nulls as they are. Position p of the non-null part lies in the group holding ascending position
 * j = nonNull - 1 - p, at the same distance from the group's start as j is from its end. Groups are
 * found by binary search on the ranks; the last one is remembered, so a walk costs one search a group.
 */
class MirroredOrder implements RowOrder {
  private readonly nonNull: number;
  private groupStart = 0;
  private groupEnd = 0;

  constructor(
    readonly ascending: Uint32Array,
    private readonly ranks: Uint32Array | Uint16Array,
    nullRank: number,
  ) {
    this.nonNull = this.firstAtLeast(nullRank, ascending.length);
  }

  /** The first ascending position (below `end`) whose rank is at least `rank`. */
  private firstAtLeast(rank: number, end: number): number {
    let lo = 0;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ranks[this.ascending[mid]!]! < rank) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  row(position: number): number {
    if (position >= this.nonNull) return this.ascending[position]!;
    const j = this.nonNull - 1 - position;
    if (j < this.groupStart || j >= this.groupEnd) {
      const rank = this.ranks[this.ascending[j]!]!;
      this.groupStart = this.firstAtLeast(rank, this.nonNull);
      this.groupEnd = this.firstAtLeast(rank + 1, this.nonNull);
    }
    return this.ascending[this.groupStart + this.groupEnd - 1 - j]!;
  }
}

export class RollIndex {
  readonly rollId: number;
  readonly size: number;
  private readonly p: RollIndexParts;
  /** Generation-stamped membership: row r is in the current match set when stamp[r] === gen. */
  private readonly stamp: Uint32Array;
  private gen = 0;
  /**
   * Scratch space reused by every match, so a search allocates nothing the size of its result: the
   * matching rows (read before the next match: a search runs to its end without yielding), and one bit
   * per word condition marking the rows of its postings (cleared when the match ends). Allocating them
   * per search (up to a few MB on a county's roll) made garbage collection a third of the server's
   * work under mixed load.
   */
  private readonly matched: Uint32Array;
  private readonly marks: Uint8Array;
  private readonly orders = new Map<string, RowOrder>();

  constructor(parts: RollIndexParts) {
    this.p = parts;
    this.rollId = parts.rollId;
    this.size = parts.size;
    this.stamp = new Uint32Array(parts.size);
    this.matched = new Uint32Array(parts.size);
    this.marks = new Uint8Array(parts.size);
    // A filter column's ascending order is its sort's ascending order too.
    for (const c of SEARCH_COLUMNS)
      if (c.sort && parts.valueOrders[c.field])
        this.orders.set(`${c.sort}+`, new ArrayOrder(parts.valueOrders[c.field]!));
    for (const [column, rows] of Object.entries(parts.sortOrders ?? {}))
      if (!this.orders.has(`${column}+`)) this.orders.set(`${column}+`, new ArrayOrder(rows));
  }

  /**
   * The index's parts with the ascending order of every single-column sort, and the buffers to transfer
   * (not copy) when posting them to another thread. The index is unusable here afterwards.
   */
  exportParts(): { parts: RollIndexParts; transfer: ArrayBuffer[] } {
    const sortOrders: Partial<Record<SortColumn, Uint32Array>> = {};
    for (const column of SORT_COLUMNS)
      sortOrders[column] = (this.orderOf([{ column, descending: false }]) as ArrayOrder).rows;
    const parts: RollIndexParts = { ...this.p, sortOrders };
    const buffers = new Set<ArrayBuffer>();
    const collect = (value: unknown): void => {
      if (ArrayBuffer.isView(value)) buffers.add(value.buffer as ArrayBuffer);
      else if (value && typeof value === 'object') for (const v of Object.values(value)) collect(v);
    };
    collect(parts);
    return { parts, transfer: [...buffers] };
  }

  /** Bytes held by the index (typed arrays, strings at one byte a character where they are Latin-1). */
  get bytes(): number {
    const p = this.p;
    const arrays = new Set<ArrayBufferView>([this.stamp, this.matched, this.marks]);
    const collect = (value: unknown): void => {
      if (ArrayBuffer.isView(value)) arrays.add(value);
      else if (value && typeof value === 'object') for (const v of Object.values(value)) collect(v);
    };
    collect(p);
    for (const o of this.orders.values()) if (o instanceof ArrayOrder) arrays.add(o.rows);
    // A filter column's ascending order is also its sort's: each array counts once.
    let b = p.accountText.length + p.lexicon.length + p.codeText.length;
    for (const a of arrays) b += a.byteLength;
    return b;
  }

  /** The land types and building styles present in the roll (unsorted). */
  landBuilding(): { landTypes: string[]; buildingStyles: string[] } {
    const { landTypes, buildingStyles } = this.p.lists;
    return { landTypes: [...landTypes!.values], buildingStyles: [...buildingStyles!.values] };
  }

  account(row: number): string {
    return this.p.accountText.slice(this.p.accOff[row], this.p.accOff[row + 1]);
  }

  private word(i: number): string {
    return this.p.lexicon.slice(this.p.lexOff[i], this.p.lexOff[i + 1]);
  }

  /** The ids of the words starting with `prefix`: one contiguous range of the sorted lexicon. */
  private prefixRange(prefix: string): Range {
    const w = this.p.lexOff.length - 1;
    let lo = 0;
    let hi = w;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.word(mid) < prefix) lo = mid + 1;
      else hi = mid;
    }
    const start = lo;
    hi = w;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.word(mid).startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return [start, lo];
  }

  private exactRange(word: string): Range {
    const [lo, hi] = this.prefixRange(word);
    return lo < hi && this.word(lo) === word ? [lo, lo + 1] : [lo, lo];
  }

  /** Where the values in [min, max] lie in an ascending list of `end` values (nulls are never in it). */
  private static bounds(
    at: (k: number) => number,
    end: number,
    { min, max }: { min?: number; max?: number },
  ): [number, number] {
    const bound = (below: (v: number) => boolean) => {
      let lo = 0;
      let hi = end;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (below(at(mid))) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const lo = min === undefined ? 0 : bound((v) => v < min);
    const hi = max === undefined ? end : bound((v) => v <= max);
    return [lo, Math.max(lo, hi)];
  }

  /**
   * The criteria as conditions: each a check on one row and, where the index can list the rows that pass
   * it (postings, a column's order, a dictionary value's rows), those candidates, whose count is O(1).
   * The filters come from the search columns (search-columns.ts), as the SQL path's do.
   */
  private conditionsOf(c: SearchCriteria): Condition[] {
    const p = this.p;
    const out: Condition[] = [];
    const wordRanges: Range[][] = [
      ...c.terms.map((t) => [this.prefixRange(t)]),
      ...(c.choices ?? []).map((group) => group.map((t) => this.prefixRange(t))),
      ...(c.words ?? []).map((w) => [this.exactRange(w)]),
      ...(c.recheckTerms ?? []).map((t) => [this.prefixRange(t)]),
    ];
    for (const ranges of wordRanges)
      out.push({
        check: () => true,
        words: ranges,
        // One word's postings hold each row once; a prefix's several words may repeat a row.
        source: {
          slices: ranges.map(([lo, hi]) => ({
            rows: p.postings,
            start: p.postOff[lo]!,
            end: p.postOff[hi]!,
          })),
          repeats: ranges.length > 1 || ranges[0]![1] - ranges[0]![0] > 1,
        },
      });
    const range = (field: string, r: { min?: number; max?: number }) => {
      if (r.min === undefined && r.max === undefined) return;
      const values = p.numbers[field]!;
      const order = p.valueOrders[field]!;
      const min = r.min ?? -Infinity;
      const max = r.max ?? Infinity;
      const [start, end] = RollIndex.bounds((k) => values[order[k]!]!, p.nonNull[field]!, r);
      out.push({
        check: (row) => values[row]! >= min && values[row]! <= max,
        source: { slices: [{ rows: order, start, end }], repeats: false },
      });
    };
    const flagMasks = new Map<string, { mask: number; slices: Slice[] }>();
    for (const column of SEARCH_COLUMNS) {
      const f: FilterSpec | undefined = column.filter;
      const field = column.field;
      if (!f || c[f.criterion] === undefined) continue;
      switch (f.test) {
        case 'range':
          range(field, c[f.criterion]!);
          break;
        case 'dateRange': {
          const { from, to } = c[f.criterion]!;
          range(field, { min: from ? dayOf(from) : undefined, max: to ? dayOf(to) : undefined });
          break;
        }
        case 'atLeast':
          range(field, { min: c[f.criterion] });
          break;
        case 'anyOf':
          this.anyOf(out, p.lists[field]!, c[f.criterion]!);
          break;
        case 'flag': {
          if (!c[f.criterion]![f.option]) break;
          const group = flagMasks.get(f.criterion) ?? { mask: 0, slices: [] };
          group.mask |= FLAG_BIT[field]!;
          const rows = p.flagRows[field]!;
          group.slices.push({ rows, start: 0, end: rows.length });
          flagMasks.set(f.criterion, group);
          break;
        }
        case 'anyInRange':
          this.anyInRange(out, p.numberLists[field]!, c[f.criterion]!);
          break;
      }
    }
    for (const { mask, slices } of flagMasks.values())
      out.push({
        check: (row) => (p.flags[row]! & mask) !== 0,
        source: { slices, repeats: slices.length > 1 },
      });
    for (const code of c.codes)
      out.push({
        check: (row) => {
          const end = p.codeOff[row + 1]!;
          for (let pos = p.codeOff[row]!; pos < end; pos = p.codeText.indexOf('\0', pos) + 1)
            if (p.codeText.startsWith(code, pos)) return true;
          return false;
        },
        source: null,
      });
    return out;
  }

  /** A row holds one of the wanted values: the rows of each such value are the candidates. */
  private anyOf(out: Condition[], lists: ValueLists, wanted: string[]) {
    if (!wanted.length) return;
    const want = new Uint8Array(lists.values.length);
    const slices: Slice[] = [];
    lists.values.forEach((v, i) => {
      if (!wanted.includes(v)) return;
      want[i] = 1;
      slices.push({ rows: lists.rows, start: lists.rowOff[i]!, end: lists.rowOff[i + 1]! });
    });
    out.push({
      check: (row) => {
        for (let j = lists.off[row]!; j < lists.off[row + 1]!; j++) if (want[lists.ids[j]!]) return true;
        return false;
      },
      source: { slices, repeats: slices.length > 1 },
    });
  }

  /** One of a row's numbers lies in the range: the entries in it (a row may repeat) are the candidates. */
  private anyInRange(out: Condition[], lists: NumberLists, r: { min?: number; max?: number }) {
    if (r.min === undefined && r.max === undefined) return;
    const min = r.min ?? -Infinity;
    const max = r.max ?? Infinity;
    const { off, values, sortedValues, sortedRows } = lists;
    const [start, end] = RollIndex.bounds((k) => sortedValues[k]!, sortedValues.length, r);
    out.push({
      check: (row) => {
        for (let j = off[row]!; j < off[row + 1]!; j++)
          if (values[j]! >= min && values[j]! <= max) return true;
        return false;
      },
      source: { slices: [{ rows: sortedRows, start, end }], repeats: true },
    });
  }

  /** A check that a row holds a word of any of the ranges (wordCheck of each). */
  private wordsCheck(ranges: Range[], candidates: number, marked: Range[]): (row: number) => boolean {
    if (ranges.length === 1) return this.wordCheck(ranges[0]!, candidates, marked);
    const checks = ranges.map((r) => this.wordCheck(r, candidates, marked));
    return (row) => checks.some((check) => check(row));
  }

  /**
   * A check that a row holds one of the words of a range: a binary search in each word's postings (rows
   * ascending) when few candidates will be checked, else a mark on every row of the range's postings:
   * a bit of `marks` (the range is added to `marked`, whose rows the caller unmarks; at most 8 ranges),
   * or a fresh array.
   */
  private wordCheck([lo, hi]: Range, candidates: number, marked: Range[]): (row: number) => boolean {
    const { postOff, postings } = this.p;
    const start = postOff[lo]!;
    const end = postOff[hi]!;
    if (start === end) return () => false;
    if (candidates * (hi - lo) * 24 < end - start)
      return (row) => {
        for (let w = lo; w < hi; w++) {
          let a = postOff[w]!;
          let b = postOff[w + 1]!;
          while (a < b) {
            const m = (a + b) >>> 1;
            if (postings[m]! < row) a = m + 1;
            else b = m;
          }
          if (a < postOff[w + 1]! && postings[a] === row) return true;
        }
        return false;
      };
    if (marked.length === 8) {
      const own = new Uint8Array(this.size);
      for (let j = start; j < end; j++) own[postings[j]!] = 1;
      return (row) => own[row] === 1;
    }
    const bit = 1 << marked.length;
    marked.push([lo, hi]);
    const marks = this.marks;
    for (let j = start; j < end; j++) marks[postings[j]!]! |= bit;
    return (row) => (marks[row]! & bit) !== 0;
  }

  /**
   * The rows matching the criteria (all of them unless `limit`), stamped for membership tests: the
   * candidates of the most selective condition that lists its rows, each checked against the others
   * (or one pass over the roll when no condition lists its rows).
   */
  private match(c: SearchCriteria, limit = Infinity): Matches {
    const conditions = this.conditionsOf(c);
    if (conditions.length === 0) return { rows: null, count: Math.min(this.size, limit) };
    const stamp = this.stamp;
    const sizeOf = (s: Source) => s.slices.reduce((n, x) => n + x.end - x.start, 0);
    let best: Condition | null = null;
    for (const cond of conditions)
      if (cond.source && (!best || sizeOf(cond.source) < sizeOf(best.source!))) best = cond;
    const candidates = best ? sizeOf(best.source!) : this.size;
    const out = this.matched;
    const max = Math.min(limit, this.size);
    let count = 0;
    // The word ranges whose rows are marked in `marks`, unmarked when done.
    const marked: Range[] = [];
    try {
      const others = conditions
        .filter((cond) => cond !== best)
        .map((cond) => (cond.words ? this.wordsCheck(cond.words, candidates, marked) : cond.check));
      const passes = (row: number) => {
        for (const check of others) if (!check(row)) return false;
        return true;
      };
      if (best) {
        const { slices, repeats } = best.source!;
        const seen = this.nextGen();
        for (const { rows, start, end } of slices)
          for (let j = start; j < end && count < max; j++) {
            const row = rows[j]!;
            if (repeats) {
              if (stamp[row] === seen) continue;
              stamp[row] = seen;
            }
            if (passes(row)) out[count++] = row;
          }
      } else for (let row = 0; row < this.size && count < max; row++) if (passes(row)) out[count++] = row;
    } finally {
      // Only the rows marked: cheaper than clearing the whole array.
      const { postOff, postings } = this.p;
      const marks = this.marks;
      for (const [lo, hi] of marked)
        for (let j = postOff[lo]!; j < postOff[hi]!; j++) marks[postings[j]!] = 0;
    }
    // Membership stamps after any dedupe stamps, so both can share one array.
    const member = this.nextGen();
    for (let i = 0; i < count; i++) stamp[out[i]!] = member;
    return { rows: out.subarray(0, count), count };
  }

  private nextGen(): number {
    if (this.gen === 0xffffffff) {
      this.stamp.fill(0);
      this.gen = 0;
    }
    return ++this.gen;
  }

  /** The sort key of a row for one sort column: nulls last in both directions. */
  private keyOf(k: SortKey): { key: (row: number) => number; distinct: number } {
    const { ranks, distinct } = this.p.ranks[k.column];
    const key = k.descending
      ? (row: number) => {
          const r = ranks[row]!;
          return r === distinct ? distinct : distinct - 1 - r;
        }
      : (row: number) => ranks[row]!;
    return { key, distinct };
  }

  /**
   * A dense composite rank of the sort keys (0..N), so that rank * N + row orders rows exactly as the
   * SQL ORDER BY does (row = account order, the tie-break).
   */
  private compositeRank(sort: SortKey[]): Float64Array {
    const n = this.size;
    const first = this.keyOf(sort[0]!);
    let composite = new Float64Array(n);
    for (let row = 0; row < n; row++) composite[row] = first.key(row);
    for (const k of sort.slice(1)) {
      const next = this.keyOf(k);
      const span = next.distinct + 1;
      for (let row = 0; row < n; row++) composite[row] = composite[row]! * span + next.key(row);
      // Re-densify so the next multiplication stays far below 2^53.
      const sorted = composite.slice().sort();
      let u = 0;
      for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[u - 1]) sorted[u++] = sorted[i]!;
      const dense = new Float64Array(n);
      for (let row = 0; row < n; row++) {
        const v = composite[row]!;
        let lo = 0;
        let hi = u;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (sorted[mid]! < v) lo = mid + 1;
          else hi = mid;
        }
        dense[row] = lo;
      }
      composite = dense;
    }
    return composite;
  }

  /**
   * Computes and caches the order of a sort ahead of its first search (the registry prepares the
   * single-column sorts after a build, yielding between them, so no visitor waits for one).
   */
  prepareOrder(sort: SortKey[]): void {
    this.orderOf(sort);
  }

  /**
   * Every row in the sort's order, computed once per sort and cached (bounded). A single column's
   * descending order is read off its ascending one (MirroredOrder) instead of being stored: half the
   * memory of the cached orders.
   */
  private orderOf(sort: SortKey[]): RowOrder {
    const id = sort.map((k) => `${k.column}${k.descending ? '-' : '+'}`).join(',');
    const cached = this.orders.get(id);
    if (cached) {
      this.orders.delete(id);
      this.orders.set(id, cached);
      return cached;
    }
    let order: RowOrder;
    if (sort.length === 1 && sort[0]!.descending) {
      const { column } = sort[0]!;
      const ascending = this.orderOf([{ column, descending: false }]) as ArrayOrder;
      const { ranks, distinct } = this.p.ranks[column];
      order = new MirroredOrder(ascending.rows, ranks, distinct);
    } else {
      const n = this.size;
      const rank = this.compositeRank(sort);
      const keys = new Float64Array(n);
      for (let row = 0; row < n; row++) keys[row] = rank[row]! * n + row;
      keys.sort();
      const rows = new Uint32Array(n);
      for (let i = 0; i < n; i++) rows[i] = keys[i]! % n;
      order = new ArrayOrder(rows);
    }
    if (this.orders.size >= MAX_CACHED_ORDERS) this.evictOrder();
    this.orders.set(id, order);
    return order;
  }

  /** Forgets the least recently used order that no mirrored order reads. */
  private evictOrder() {
    const inUse = new Set<Uint32Array>();
    for (const o of this.orders.values()) if (o instanceof MirroredOrder) inUse.add(o.ascending);
    for (const [id, o] of this.orders) {
      if (o instanceof ArrayOrder && inUse.has(o.rows)) continue;
      this.orders.delete(id);
      return;
    }
  }

  /** Sorts a few rows by the sort keys (then account order). */
  private sortRows(rows: Uint32Array, sort: SortKey[]): Uint32Array {
    const keys = sort.map((k) => this.keyOf(k).key);
    if (keys.length === 1) {
      const key = keys[0]!;
      const n = this.size;
      const v = new Float64Array(rows.length);
      for (let i = 0; i < rows.length; i++) v[i] = key(rows[i]!) * n + rows[i]!;
      v.sort();
      return Uint32Array.from(v, (x) => x % n);
    }
    return rows.slice().sort((a, b) => {
      for (const key of keys) {
        const d = key(a) - key(b);
        if (d !== 0) return d;
      }
      return a - b;
    });
  }

  /**
   * The rows of one page of the result in sort order, and the exact total. `window` receives the exact
   * total and returns the slice to read (offset, limit, reverse: read from the end in mirror order), or
   * null for a page past the end.
   */
  search(
    c: SearchCriteria,
    sort: SortKey[],
    window: (total: number) => { offset: number; limit: number; reverse: boolean } | null,
  ): { total: number; rows: number[] } {
    const m = this.match(c);
    const w = window(m.count);
    if (!w || w.limit <= 0) return { total: m.count, rows: [] };
    const { offset, limit, reverse } = w;
    const n = this.size;
    if (m.rows === null) {
      const order = this.orderOf(sort);
      const rows: number[] = [];
      for (let i = offset; i < offset + limit && i < n; i++) rows.push(order.row(reverse ? n - 1 - i : i));
      return { total: m.count, rows: reverse ? rows.reverse() : rows };
    }
    // Sorting the matches costs about M log M; walking the sort order costs about (offset + limit) / share.
    const walk = ((offset + limit) * n) / Math.max(m.count, 1);
    const sortCost = m.count * Math.log2(m.count + 1);
    if (m.count <= SORT_MATCHES_UP_TO || sortCost < walk) {
      const sorted = this.sortRows(m.rows, sort);
      const rows: number[] = [];
      for (let i = offset; i < offset + limit && i < sorted.length; i++)
        rows.push(sorted[reverse ? sorted.length - 1 - i : i]!);
      return { total: m.count, rows: reverse ? rows.reverse() : rows };
    }
    const order = this.orderOf(sort);
    const gen = this.gen;
    const rows: number[] = [];
    let skip = offset;
    for (let i = 0; i < n && rows.length < limit; i++) {
      const row = order.row(reverse ? n - 1 - i : i);
      if (this.stamp[row] !== gen) continue;
      if (skip > 0) skip--;
      else rows.push(row);
    }
    return { total: m.count, rows: reverse ? rows.reverse() : rows };
  }

  /** Up to `limit` matching rows, in account order for a single word, else in no particular order. */
  sample(c: SearchCriteria, limit: number): number[] {
    const m = this.match(c, limit);
    if (m.rows === null) return Array.from({ length: m.count }, (_, i) => i);
    return Array.from(m.rows);
  }
}

/** Every public sort (the registry prepares their orders after a build). */
export const sortColumns = SORT_COLUMNS;
