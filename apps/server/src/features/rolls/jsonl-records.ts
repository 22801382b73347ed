import type { SourceRecord } from './roll-rows.ts';

/*
 * Parsing JSON Lines a block at a time, on the importing thread or an import thread (prepare-worker.ts).
 * Apart from the CSV reader (record-sources.ts) so that a thread's code does not load csv-parse and the
 * contracts it maps columns to.
 */

/**
 * A run of consecutive lines of a JSON Lines file, as read: the UTF-8 bytes of lines `firstLine` on,
 * each ending in a line break except perhaps the file's last (blank lines included). `error` ends the
 * file: the line after the last one given could not be read. Bytes rather than strings: a block is
 * handed to a worker thread and its buffer moves there, so the importing thread's heap never holds the
 * file's text (as strings, each megabyte read was garbage only a full collection frees, and that heap
 * reached 350 MB during a 1M-record import). The buffer under `bytes` belongs to the block alone (it
 * may be larger than `bytes`): it is moved, not copied.
 */
export interface LineBlock {
  firstLine: number;
  bytes: Uint8Array;
  error?: string;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * The records of a block of JSON Lines, each with its line number. Lines end in LF or CRLF; a
 * byte-order mark before line 1 is dropped. Each line is decoded on its own, just before it is parsed:
 * the block decoded whole was a megabyte string, which the engine keeps in memory of its own, fresh
 * from the operating system for every block (a sixth of a 40,000-record import's page faults), and its
 * lines decoded all at once were all alive at every young-generation collection during the block, each
 * copied there and again into the old generation (decoded one at a time: 5–8 % less CPU per record on
 * an import thread). A line is a few kilobytes and dies young.
 */
export function* jsonlRecords(block: LineBlock): Generator<SourceRecord> {
  const { bytes } = block;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let line = block.firstLine;
  let start = line === 1 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  // A block ends with a line break, but for the file's last line: nothing follows the last break.
  while (start < buf.length) {
    const lf = buf.indexOf(LF, start);
    const end = lf === -1 ? buf.length : lf;
    // Invalid UTF-8 becomes U+FFFD, as a stream decoding the file would make it (a line break is never
    // part of a character, so a line decodes as it would within the file).
    const body = buf.toString('utf8', start, end > start && buf[end - 1] === CR ? end - 1 : end);
    start = end + 1;
    if (body.trim() !== '') yield parseJsonLine(line, body);
    line++;
  }
  if (block.error !== undefined) yield { line, error: block.error };
}

function parseJsonLine(line: number, body: string): SourceRecord {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    return { line, error: `not valid JSON (${(err as Error).message})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      line,
      error: `expected a JSON object (one property record), got ${Array.isArray(value) ? 'a list' : JSON.stringify(value)}`,
    };
  return { line, value };
}
