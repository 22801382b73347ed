import fs from 'node:fs';
import path from 'node:path';
import { parse, type InfoRecord, type Options as CsvOptions } from 'csv-parse';
import type { RecordSource } from './import.service.ts';
import type { SourceRecord } from './roll-rows.ts';
import { columnForPath, readHeader, rowToRecord } from './csv-columns.ts';

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

/**
 * A run of consecutive lines of a JSON Lines file, as read: `lines[i]` is line `firstLine + i` (blank
 * lines included, a byte-order mark removed from line 1). `error` ends the file: the line after the
 * last one given could not be read.
 */
export interface LineBlock {
  firstLine: number;
  lines: string[];
  error?: string;
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

/** The records of a block of JSON Lines, each with its line number. */
export function* jsonlRecords(block: LineBlock): Generator<SourceRecord> {
  for (let i = 0; i < block.lines.length; i++) {
    const body = block.lines[i]!;
    if (body.trim() === '') continue;
    yield parseJsonLine(block.firstLine + i, body);
  }
  if (block.error !== undefined) yield { line: block.firstLine + block.lines.length, error: block.error };
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

/**
 * Lines handed on together at most: a block becomes one batch of COPY text, and a sparse record is
 * written out with every field, about five times its size in the file (a 1 MB chunk of 560-byte lines
 * was a 5 MB batch, and an import holds several batches at once: reading, preparing, writing).
 */
const BLOCK_LINES = 500;

/**
 * Lines of a UTF-8 file (LF or CRLF), read in chunks of 1 MB and handed on a chunk (or BLOCK_LINES
 * lines) at a time.
 */
async function* readLineBlocks(
  filePath: string,
  onRead?: (bytesRead: number) => void,
): AsyncGenerator<LineBlock> {
  const stream = fs.createReadStream(filePath, { encoding: 'utf8', highWaterMark: 1024 * 1024 });
  let rest = '';
  let next = 1;
  const block = (lines: string[], error?: string): LineBlock => {
    if (next === 1 && lines.length > 0) lines[0] = lines[0]!.replace(/^\uFEFF/, '');
    const b: LineBlock = error === undefined ? { firstLine: next, lines } : { firstLine: next, lines, error };
    next += lines.length;
    return b;
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      onRead?.(stream.bytesRead);
      const text = rest + chunk;
      const lines: string[] = [];
      let start = 0;
      let nl: number;
      while ((nl = text.indexOf('\n', start)) !== -1) {
        const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        lines.push(text.slice(start, end));
        start = nl + 1;
        if (lines.length === BLOCK_LINES) yield block(lines.splice(0));
      }
      rest = text.slice(start);
      if (rest.length > MAX_RECORD_BYTES) {
        yield block(lines, `line is longer than ${MAX_RECORD_BYTES / 1024 / 1024} MB`);
        return;
      }
      if (lines.length > 0) yield block(lines);
    }
    if (rest !== '') yield block([rest.endsWith('\r') ? rest.slice(0, -1) : rest]);
  } finally {
    stream.destroy();
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
function embeddedLineBreaks(cells: string[]): { breaks: number; crlf: number } {
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
