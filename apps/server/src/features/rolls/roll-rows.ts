import type { PropertyRecord } from '@opp/contracts';
import { copyJson, copyText } from '../../db/copy-text.ts';
import { ByteWriter } from '../../lib/byte-writer.ts';
import { toPropertyRow, type PropertyRow } from '../properties/property-row.ts';
import { packRecord } from '../properties/record-codec.ts';
import { copySearchValues } from '../search/search-columns.ts';
import { fastParseRecord } from './record-fast-path.ts';
import { copyHistoryRows } from './value-history.ts';
import type { NotesSnapshot, ValueNote } from './import-notes.ts';

/*
 * What an import computes for each record, from input to COPY text: the check against the contract,
 * the stored row, and its line in COPY's text format. Pure and free of I/O, so it runs on the importing
 * thread or on a worker thread (prepare-pool.ts) with the same result.
 */

/**
 * One parsed input record, with the file line it starts on, or a parse error there. `field` names the
 * input field behind a record path when the file's names differ from the record's (CSV columns).
 */
export type SourceRecord =
  | {
      line: number;
      value: unknown;
      field?: (path: PropertyKey[]) => string | null;
      /** Values a mapping left out or changed on purpose (import-notes.ts). */
      notes?: ValueNote[];
    }
  | {
      line: number;
      error: string;
      /** What could be read of the record, for its fill rates (a record with a problem still counts). */
      partial?: Record<string, unknown>;
      notes?: ValueNote[];
    };

/** The roll's columns in the order copyRow writes them (`record` stays empty: see RECORD_COPY_COLUMNS). */
export { ROLL_COPY_COLUMNS } from '../search/search-columns.ts';

/** The columns of the roll's records table (migrations/0009) in the order copyRecordRow writes them. */
export const RECORD_COPY_COLUMNS = 'roll_id, account, record';

export interface RollTarget {
  rollId: number;
  clientId: number;
}

/**
 * The contract's own check of a record (zod's PropertyRecord.safeParse: full-check.ts), asked only for
 * records the fast path (record-fast-path.ts) leaves to it. A parameter rather than an import: an import
 * thread loads zod only once a record needs it (prepare-worker.ts).
 */
export type FullCheck = (typeof PropertyRecord)['safeParse'];

/** A record's outcome: its account when it is valid, else the messages that say why not. */
type PreparedRecord = { line: number; account: string } | { line: number; errors: string[] };

export interface PreparedBatch {
  records: PreparedRecord[];
  /**
   * COPY text (a line per row) of the valid records' roll rows, in input order, as UTF-8 in a buffer of
   * its own (a batch prepared on a worker thread moves to the importing thread without a copy).
   */
  copy: Uint8Array<ArrayBuffer>;
  /** COPY text of their packed records (the records table), in the same order and form. */
  recordCopy: Uint8Array<ArrayBuffer>;
  /** COPY text of the lines they add to the town's valuation history (value-history.ts), in the same form. */
  historyCopy: Uint8Array<ArrayBuffer>;
  /** How many rows `copy` holds. */
  rows: number;
  /** Accounts whose words PostgreSQL's own parser would split (see rolls.repository copyRows). */
  numberLike: string[];
  /** The newest TaxYear of the rows written, or null: the roll's tax year (import_runs.tax_year). */
  taxYear: number | null;
  /** The block's notes, when an import thread prepared it for a run that notes its records. */
  notes?: NotesSnapshot;
}

/** A word PostgreSQL's text parser would split: a digit, `e`, a digit inside it. */
const NUMBER_LIKE = /[0-9]e[0-9]/;

/** A zod issue as a person reads it: `line 812: Sales[0].SalePrice: expected a number, got "N/A"`. */
function formatIssue(line: number, path: PropertyKey[], message: string, field?: string | null): string {
  const where =
    field ??
    path.reduce<string>(
      (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
      '',
    );
  return `line ${line}: ${where ? `${where}: ` : ''}${message}`;
}

/** One row in COPY's text format (no line break), columns as ROLL_COPY_COLUMNS. */
export function copyRow(target: RollTarget, r: PropertyRow): string {
  return `${target.rollId}\t${target.clientId}\t${copySearchValues(r)}`;
}

/** The record's row of the records table in COPY's text format, packed (properties/record-codec.ts). */
export function copyRecordRow(target: RollTarget, r: PropertyRow): string {
  return `${target.rollId}\t${copyText(r.account)}\t${copyJson(packRecord(r.record))}`;
}

interface PrepareOptions {
  /** For records the fast path leaves to the contract; whatever it throws ends the batch. */
  fullCheck: FullCheck;
  /** A file already known to be rejected (nothing more will be written): no rows are built. */
  checkOnly?: boolean;
}

/** Checks records against the contract and writes the valid ones as COPY text. */
export function prepareRecords(
  items: Iterable<SourceRecord>,
  target: RollTarget,
  options: PrepareOptions,
): PreparedBatch {
  const { fullCheck, checkOnly = false } = options;
  const { copy, recordCopy, historyCopy } = writers;
  let written: Omit<PreparedBatch, 'copy' | 'recordCopy' | 'historyCopy'>;
  try {
    written = writeRecords(items, target, fullCheck, checkOnly);
  } catch (err) {
    // Nothing of a batch that did not finish stays for the next one.
    copy.clear();
    recordCopy.clear();
    historyCopy.clear();
    throw err;
  }
  return { ...written, copy: copy.take(), recordCopy: recordCopy.take(), historyCopy: historyCopy.take() };
}

/** prepareRecords' loop: each record's outcome, and the valid ones' rows written to this thread's writers. */
function writeRecords(
  items: Iterable<SourceRecord>,
  target: RollTarget,
  fullCheck: FullCheck,
  checkOnly: boolean,
): Omit<PreparedBatch, 'copy' | 'recordCopy' | 'historyCopy'> {
  const records: PreparedRecord[] = [];
  const numberLike: string[] = [];
  const { copy, recordCopy, historyCopy } = writers;
  let rows = 0;
  let taxYear: number | null = null;
  for (const item of items) {
    if ('error' in item) {
      records.push({ line: item.line, errors: [`line ${item.line}: ${item.error}`] });
      continue;
    }
    let record = fastParseRecord(item.value);
    if (!record) {
      const parsed = fullCheck(item.value);
      if (!parsed.success) {
        records.push({
          line: item.line,
          errors: parsed.error.issues.map((issue) =>
            formatIssue(item.line, issue.path, issue.message, item.field?.(issue.path)),
          ),
        });
        continue;
      }
      record = parsed.data;
    }
    if (checkOnly) {
      records.push({ line: item.line, account: record.Account });
      continue;
    }
    const row = toPropertyRow(record);
    records.push({ line: item.line, account: row.account });
    copy.write(`${copyRow(target, row)}\n`);
    recordCopy.write(`${copyRecordRow(target, row)}\n`);
    historyCopy.write(copyHistoryRows(record));
    rows++;
    if (row.searchWords.some((w) => NUMBER_LIKE.test(w))) numberLike.push(row.account);
    for (const t of record.Taxes) if (taxYear === null || t.TaxYear > taxYear) taxYear = t.TaxYear;
  }
  return { records, rows, numberLike, taxYear };
}

/** The thread's writers, emptied by every batch (prepareRecords runs to its end without yielding). */
const writers = { copy: new ByteWriter(), recordCopy: new ByteWriter(), historyCopy: new ByteWriter() };
