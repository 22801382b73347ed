import { readCopyText } from '../../../db/copy-text.ts';
import { generated, keyLiteral } from '../../../lib/generated-code.ts';
import { INDEX_COLUMNS, INDEX_READERS } from '../search-columns.ts';
import type { IndexSourceRow } from './roll-index.ts';

/*
 * The rows an index is built from, as rollIndexRepository.readBatch reads them: COPY's text format, a
 * row a line, its columns those of INDEX_COLUMNS (search-columns.ts), in that order. Read as result rows they cost more
 * than the query did (the embedded engine's client makes an object of every value of every row, and a
 * build thread got them as a structured clone); as bytes they move to the build thread untouched and
 * are read there. Pure, for that thread and for the server's own (small rolls).
 */

const COLUMNS = INDEX_COLUMNS.length;
const LINE = 10;
const TAB = 9;

const decoder = new TextDecoder();

/**
 * A row's fields (split at tabs) as a source row, compiled once into an object literal with fixed keys:
 * every row then has the same shape, and the builder reads it without keyed lookups. Keys come from
 * INDEX_COLUMNS, never from input.
 */
const toRow = generated<(fields: string[]) => IndexSourceRow>(
  { readers: INDEX_COLUMNS.map((c) => INDEX_READERS[c.index]) },
  `(f) => ({ ${INDEX_COLUMNS.map((c, i) => `${keyLiteral(c.field)}: readers[${i}](f[${i}])`).join(', ')} })`,
);

/** Calls `onRow` with each row of a batch, in order; returns how many there were. */
export function readIndexRows(bytes: Uint8Array, onRow: (row: IndexSourceRow) => void): number {
  const text = decoder.decode(bytes);
  let count = 0;
  for (let start = 0; start < text.length; count++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const f = text.slice(start, end).split('\t');
    start = end + 1;
    if (f.length !== COLUMNS) throw new Error(`an index row of ${f.length} columns, not ${COLUMNS}`);
    onRow(toRow(f));
  }
  return count;
}

/** How many rows a batch holds and the account of its last one (the next batch starts after it). */
export function batchEnd(bytes: Uint8Array): { rows: number; lastAccount: string | null } {
  let rows = 0;
  for (let i = bytes.indexOf(LINE); i !== -1; i = bytes.indexOf(LINE, i + 1)) rows++;
  if (rows === 0) return { rows, lastAccount: null };
  const lineStart = bytes.lastIndexOf(LINE, bytes.length - 2) + 1;
  const accountEnd = bytes.indexOf(TAB, lineStart);
  return { rows, lastAccount: readCopyText(decoder.decode(bytes.subarray(lineStart, accountEnd))) };
}
