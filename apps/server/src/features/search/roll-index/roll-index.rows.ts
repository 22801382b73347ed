import { COPY_NULL, readCopyText, readTextArray } from '../../../db/copy-text.ts';
import type { IndexSourceRow } from './roll-index.ts';

/*
 * The rows an index is built from, as rollIndexRepository.readBatch reads them: COPY's text format, a
 * row a line, its columns in the order of that query's select list. Read as result rows they cost more
 * than the query did (the embedded engine's client makes an object of every value of every row, and a
 * build thread got them as a structured clone); as bytes they move to the build thread untouched and
 * are read there. Pure, for that thread and for the server's own (small rolls).
 */

const COLUMNS = 18;
const LINE = 10;
const TAB = 9;

const decoder = new TextDecoder();

const num = (field: string) => (field === COPY_NULL ? null : Number(field));
const arrayOf = (field: string) => (field === COPY_NULL ? [] : readTextArray(readCopyText(field)!));

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
    onRow({
      account: readCopyText(f[0]!)!,
      accountKey: readCopyText(f[1]!)!,
      mapLotKey: readCopyText(f[2]!),
      nameKey: readCopyText(f[3]!),
      locationKey: readCopyText(f[4]!),
      buildingLand: num(f[5]!),
      totalAcres: num(f[6]!),
      saleDate: readCopyText(f[7]!),
      salePrice: num(f[8]!),
      livingArea: num(f[9]!),
      bedrooms: num(f[10]!),
      bathrooms: num(f[11]!),
      hasResidential: f[12] === 't',
      hasCommercial: f[13] === 't',
      landTypes: arrayOf(f[14]!),
      buildingStyles: arrayOf(f[15]!),
      words: arrayOf(f[16]!),
      codes: arrayOf(f[17]!),
    });
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
