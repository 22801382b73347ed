import fs from 'node:fs';
import path from 'node:path';
import { parse, type InfoRecord, type Options as CsvOptions } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import type { RecordSource } from './import.service.ts';
import { columnForPath, layoutFields, readHeader, resolveColumn, rowToRecord } from './csv-columns.ts';
import { jsonlRecords, type LineBlock } from './jsonl-records.ts';

/*
 * Roll files are read as streams, once per import pass: a 100,000-record roll never sits in memory.
 * Each record carries the line of the file it starts on, so every error can name it.
 */

export type RollFormat = 'jsonl' | 'csv';

/** One line (or CSV record) larger than this is a broken file, not a property. */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

export class UnsupportedRollFileError extends Error {}

export interface SourceOptions {
  /** Called as the file is read, with the bytes read so far in this pass (for a progress bar). */
  onRead?: (bytesRead: number) => void;
}

/** The format a file name announces: .jsonl / .ndjson (JSON Lines) or .csv. Null for anything else. */
export function rollFormatOf(fileName: string): RollFormat | null {
  const ext = path.extname(fileName).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.csv') return 'csv';
  return null;
}

/**
 * The record source for a roll file, chosen by the extension of `fileName` (defaults to the path; an
 * upload stored under a temporary name passes its original name). Throws UnsupportedRollFileError for
 * other extensions.
 */
export function recordSourceFor(
  filePath: string,
  fileName: string = filePath,
  options: SourceOptions = {},
): RecordSource {
  const format = rollFormatOf(fileName);
  if (format === 'jsonl') return jsonlSource(filePath, options);
  if (format === 'csv') return csvSource(filePath, options);
  throw new UnsupportedRollFileError(
    `${path.basename(fileName)}: a roll file must end in .jsonl (JSON Lines) or .csv`,
  );
}

/** The header row of a CSV file, read from its start alone; null when there is none to read. */
function csvHeaderRow(filePath: string): string[] | null {
  const fd = fs.openSync(filePath, 'r');
  let text: string;
  try {
    const buf = Buffer.alloc(256 * 1024);
    text = buf.toString('utf8', 0, fs.readSync(fd, buf, 0, buf.length, 0));
  } finally {
    fs.closeSync(fd);
  }
  try {
    return (parseSync(text, { bom: true, to_line: 1, relax_column_count: true }) as string[][])[0] ?? null;
  } catch {
    return null; // not valid CSV: the import reports it on its line
  }
}

/**
 * Why a CSV file is not in the portal's own format, read from its header row alone (before any
 * record, so no count of records is claimed): one line saying so, then the header's problems. Null
 * when the header is the portal's, with the record fields its columns fill (`fields`).
 */
export function readCsvHeader(
  filePath: string,
  fileName: string,
): { problems: string[] } | { fields: string[] | undefined } {
  const header = csvHeaderRow(filePath);
  if (!header) return { fields: undefined };
  const read = readHeader(header);
  if ('layout' in read) return { fields: layoutFields(read.layout) };
  const unknown = header.filter((h) => typeof resolveColumn(h) === 'string');
  const noAccount = read.errors.includes('no Account column');
  return {
    problems: [
      `${path.basename(fileName)} is not in the portal's own CSV format: ${
        unknown.length
          ? `${unknown.length} of its ${header.length} columns are not fields of the record (${unknown.slice(0, 6).join(', ')}${unknown.length > 6 ? ', …' : ''})`
          : 'its columns do not fit the record'
      }${noAccount ? ', and it has no Account column' : ''}. A town's own export is read through a built-in format or a mapping file (examples in docs/examples)`,
      ...read.errors.slice(0, 20),
    ],
  };
}

/**
 * JSON Lines: one §3 record per line; blank lines are skipped (but still counted for line numbers).
 * Besides its records the source offers the file's raw lines (`lineBlocks`), which an import of a
 * large file parses on worker threads.
 */
export function jsonlSource(filePath: string, options: SourceOptions = {}): RecordSource {
  const lineBlocks = () => readLineBlocks(filePath, options.onRead);
  const records = async function* () {
    for await (const block of lineBlocks()) yield* jsonlRecords(block);
  };
  return Object.assign(records, { lineBlocks, bytes: fileSize(filePath) });
}

function fileSize(filePath: string): number | undefined {
  try {
    return fs.statSync(filePath).size;
  } catch {
    return undefined;
  }
}

/** How much of the file is read at a time: a block is the whole lines of one read. */
const READ_BYTES = 1024 * 1024;

/** Room in a read buffer for the line a previous read cut off; a longer one gets a buffer of its own. */
const CARRY_BYTES = 64 * 1024;

const LF = 0x0a;

/**
 * Lines of a UTF-8 file (LF or CRLF), read a megabyte at a time, each read's whole lines handed on as
 * one block. A block ends at a line feed, which is never part of a multi-byte character, so each block
 * decodes on its own. Every read goes into a buffer of its own, which the block then owns: it moves to a
 * worker thread as it is, and only a line cut off at the end of a read is copied, to start the next.
 */
async function* readLineBlocks(
  filePath: string,
  onRead?: (bytesRead: number) => void,
): AsyncGenerator<LineBlock> {
  const file = await fs.promises.open(filePath, 'r');
  let rest: Uint8Array = new Uint8Array(0);
  let next = 1;
  let total = 0;
  try {
    for (;;) {
      const buf = new Uint8Array(Math.max(rest.length, CARRY_BYTES) + READ_BYTES);
      buf.set(rest);
      const { bytesRead } = await file.read(buf, rest.length, READ_BYTES, null);
      const end = rest.length + bytesRead;
      if (bytesRead === 0) {
        // The file's last line, without a line break.
        if (end > 0) yield { firstLine: next, bytes: buf.subarray(0, end) };
        return;
      }
      total += bytesRead;
      onRead?.(total);
      const last = buf.lastIndexOf(LF, end - 1);
      if (last === -1) {
        rest = buf.subarray(0, end);
        if (rest.length > MAX_RECORD_BYTES) {
          yield {
            firstLine: next,
            bytes: new Uint8Array(0),
            error: `line is longer than ${MAX_RECORD_BYTES / 1024 / 1024} MB`,
          };
          return;
        }
        continue;
      }
      let lines = 0;
      for (let at = buf.indexOf(LF); at !== -1 && at <= last; at = buf.indexOf(LF, at + 1)) lines++;
      rest = buf.slice(last + 1, end);
      yield { firstLine: next, bytes: buf.subarray(0, last + 1) };
      next += lines;
    }
  } finally {
    await file.close();
  }
}

/**
 * CSV: a header row naming the columns (see csv-columns.ts and docs/import-format.md), then one property
 * per row. Quoted cells may span lines; the line reported is the one the row starts on. Blank lines are
 * skipped.
 */
export function csvSource(filePath: string, options: SourceOptions = {}): RecordSource {
  return async function* () {
    const file = fs.createReadStream(filePath, { highWaterMark: 1024 * 1024 });
    const { onRead } = options;
    if (onRead) file.on('data', () => onRead(file.bytesRead));
    const parser = file.pipe(
      parse({
        bom: true,
        relax_column_count: true,
        skip_empty_lines: true,
        max_record_size: MAX_RECORD_BYTES,
        // Mixed line endings (a file edited on two systems) still parse.
        record_delimiter: ['\r\n', '\n', '\r'],
        // csv-parse types on_record as returning string[]; a row object is what we read below.
        on_record: ((cells: string[], ctx: InfoRecord): CsvRow => ({
          cells,
          endLine: ctx.lines,
        })) as unknown as CsvOptions['on_record'],
      }),
    );
    let layout: ReturnType<typeof readHeader> | null = null;
    let skew = 0;
    try {
      for await (const row of parser as AsyncIterable<CsvRow>) {
        const { breaks, crlf } = embeddedLineBreaks(row.cells);
        skew += crlf;
        const line = row.endLine - skew - breaks;
        if (layout === null) {
          layout = readHeader(row.cells);
          if ('errors' in layout) {
            for (const error of layout.errors) yield { line, error };
            return;
          }
          continue;
        }
        if (!('layout' in layout)) return;
        const { layout: cols } = layout;
        if (row.cells.length > cols.headers.length) {
          yield {
            line,
            error: `has ${row.cells.length} cells but the header names ${cols.headers.length} columns`,
          };
          continue;
        }
        const rec = rowToRecord(cols, row.cells);
        yield { line, value: rec.value, field: (p) => columnForPath(cols, rec, p) };
      }
      if (layout === null) yield { line: 1, error: 'the file has no header row' };
    } catch (err) {
      const e = err as Error & { lines?: number; code?: string };
      yield {
        line: Math.max(1, (e.lines ?? 1) - skew),
        error: `not valid CSV (${e.message.replace(/ at line \d+.*$/s, '')})`,
      };
    } finally {
      parser.destroy();
      file.destroy();
    }
  };
}

interface CsvRow {
  cells: string[];
  /** The file line the row ends on. */
  endLine: number;
}

/**
 * Line breaks inside quoted cells. csv-parse counts every CR and every LF as a line, so a CRLF inside a
 * quoted cell advances its count by two, for this row and every row after it (`crlf`); `breaks` is the
 * number of lines the row really spans beyond its first.
 */
export function embeddedLineBreaks(cells: string[]): { breaks: number; crlf: number } {
  let breaks = 0;
  let crlf = 0;
  for (const c of cells) {
    if (c.length === 0 || (c.indexOf('\n') === -1 && c.indexOf('\r') === -1)) continue;
    for (let i = 0; i < c.length; i++) {
      const ch = c.charCodeAt(i);
      if (ch === 13 && c.charCodeAt(i + 1) === 10) {
        crlf++;
        breaks++;
        i++;
      } else if (ch === 10 || ch === 13) breaks++;
    }
  }
  return { breaks, crlf };
}
