import { PropertyRecord } from '@opp/contracts';
import type { Db } from '../../db/database.ts';
import { toPropertyRow, type PropertyRow } from '../properties/property-row.ts';
import { fastParseRecord } from './record-fast-path.ts';
import { rollsRepository, type ImportRun } from './rolls.repository.ts';

/**
 * One parsed input record, with the file line it starts on, or a parse error there. `field` names the
 * input field behind a record path when the file's names differ from the record's (CSV columns).
 */
export type SourceRecord =
  | { line: number; value: unknown; field?: (path: PropertyKey[]) => string | null }
  | { line: number; error: string };

/** Opens the source; an import reads it once, streaming, so nothing is held in memory. */
export type RecordSource = () => AsyncIterable<SourceRecord>;

export interface ImportProgress {
  phase: 'validating' | 'importing' | 'done';
  processed: number;
  total: number | null;
}

export interface ImportOutcome {
  run: ImportRun;
  ok: boolean;
  total: number;
  errors: string[];
  errorCount: number;
}

const MAX_REPORTED_ERRORS = 100;
/** Rows per INSERT: large enough to amortise a round trip, small enough to keep memory flat. */
const BATCH = 1000;
const PROGRESS_EVERY = 5000;
/**
 * Sort memory of each index build on PGlite (its default is 64 MB): larger sorts spill to temporary
 * files, while the engine's memory, which never shrinks, stays within the import's 1 GB budget.
 */
const PGLITE_SORT_MEMORY = '16MB';

/** A zod issue as a person reads it: `line 812: Sales[0].SalePrice: expected a number, got "N/A"`. */
export function formatIssue(
  line: number,
  path: PropertyKey[],
  message: string,
  field?: string | null,
): string {
  const where =
    field ??
    path.reduce<string>(
      (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
      '',
    );
  return `line ${line}: ${where ? `${where}: ` : ''}${message}`;
}

export interface ImportOptions {
  /**
   * PostgreSQL server: build the new roll's indexes on two connections, and vacuum its table in the
   * background after the swap (sets the visibility map for index-only counts). PGlite runs one statement
   * at a time on the server's only thread, so it gets neither, and builds with less sort memory.
   */
  engine?: 'pglite' | 'postgres';
}

/**
 * Publishes a town's roll. Reads the file once: each record is checked and, while the file has no
 * error, written into the new roll's own table (invisible: no client points at it, and it is not yet
 * part of `properties`). At the first error writing stops, the rest is still checked so up to 100
 * problems are reported, and the table is dropped: a file with any error changes nothing. A good file's
 * table gets its indexes and statistics, joins `properties`, and is swapped in atomically; the previous
 * roll's table is then dropped. Throws only on infrastructure failure; a bad file is an outcome with
 * `ok: false`.
 */
export async function importRoll(
  db: Db,
  target: { clientId: number; userId: number | null; actor: string; fileName: string; runId?: number },
  source: RecordSource,
  onProgress: (p: ImportProgress) => void = () => {},
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const run = target.runId
    ? (await rollsRepository.findRun(db, target.runId))!
    : await rollsRepository.createRun(db, target);

  const errors: string[] = [];
  let errorCount = 0;
  let total = 0;
  const seen = new Map<string, number>();
  const report = (msg: string) => {
    if (errorCount === 0) onProgress({ phase: 'validating', processed: total, total: null });
    errorCount++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push(msg);
  };
  // One batch is written while the next is parsed: on a PostgreSQL server the two run on two cores.
  let inFlight: Promise<void> | null = null;
  let written = 0;
  let batch: PropertyRow[] = [];
  let writeError: unknown = null;
  const waitForWrite = async () => {
    await inFlight;
    inFlight = null;
    if (writeError) throw writeError;
  };
  const flush = async () => {
    await waitForWrite();
    const rows = batch;
    batch = [];
    // Never rejects (a failure is kept in writeError): nothing awaits it until the next batch is parsed.
    inFlight = (async () => {
      try {
        await rollsRepository.insertRows(db, run.id, target.clientId, rows);
        const before = written;
        written += rows.length;
        if (errorCount === 0) onProgress({ phase: 'importing', processed: written, total: null });
        if (Math.floor(written / PROGRESS_EVERY) !== Math.floor(before / PROGRESS_EVERY))
          await rollsRepository.updateProgress(db, run.id, { totalRecords: total, importedRecords: written });
      } catch (err) {
        writeError = err;
      }
    })();
  };

  try {
    // Rolls a crashed or failed run left behind go first: they would otherwise hold disk until a sweep.
    await rollsRepository.dropAbandonedRolls(db);
    await rollsRepository.createRollTable(db, run.id);
    await rollsRepository.updateProgress(db, run.id, {
      status: 'importing',
      totalRecords: 0,
      importedRecords: 0,
    });
    onProgress({ phase: 'importing', processed: 0, total: null });

    for await (const item of source()) {
      total++;
      if ('error' in item) {
        report(`line ${item.line}: ${item.error}`);
        continue;
      }
      let record = fastParseRecord(item.value);
      if (!record) {
        const parsed = PropertyRecord.safeParse(item.value);
        if (!parsed.success) {
          for (const issue of parsed.error.issues)
            report(formatIssue(item.line, issue.path, issue.message, item.field?.(issue.path)));
          continue;
        }
        record = parsed.data;
      }
      const account = record.Account;
      const key = account.toUpperCase();
      const first = seen.get(key);
      if (first !== undefined) {
        report(`line ${item.line}: Account: ${account} appears again (first on line ${first})`);
        continue;
      }
      seen.set(key, item.line);
      if (errorCount > 0) {
        // Only checking now: tell the watchers how far, at the pace the writes did.
        if (total % PROGRESS_EVERY === 0) {
          onProgress({ phase: 'validating', processed: total, total: null });
          await rollsRepository.updateProgress(db, run.id, { totalRecords: total });
        }
        continue;
      }
      batch.push(toPropertyRow(record));
      if (batch.length >= BATCH) await flush();
    }
    seen.clear();
    if (total === 0) report('the file holds no records');
    if (errorCount > 0) {
      batch = [];
      await waitForWrite();
      await rollsRepository.deleteRoll(db, run.id);
      await rollsRepository.fail(
        db,
        run.id,
        `${errorCount} problem${errorCount === 1 ? '' : 's'} found; nothing was changed`,
        errors,
        errorCount,
      );
      return { run: (await rollsRepository.findRun(db, run.id))!, ok: false, total, errors, errorCount };
    }
    if (batch.length) await flush();
    await waitForWrite();
    onProgress({ phase: 'importing', processed: written, total: written });
    await rollsRepository.updateProgress(db, run.id, { totalRecords: total, importedRecords: written });

    const postgres = options.engine === 'postgres';
    await rollsRepository.attachRollTable(
      db,
      run.id,
      postgres ? { parallel: 2 } : options.engine === 'pglite' ? { sortMemory: PGLITE_SORT_MEMORY } : {},
    );
    const previous = await rollsRepository.activate(db, target.clientId, run.id, written);
    onProgress({ phase: 'done', processed: written, total });
    if (previous !== null && previous !== run.id) await rollsRepository.deleteRoll(db, previous);
    if (postgres) void rollsRepository.vacuumRoll(db, run.id).catch(() => {});
    return {
      run: (await rollsRepository.findRun(db, run.id))!,
      ok: true,
      total: written,
      errors: [],
      errorCount: 0,
    };
  } catch (err) {
    // A batch still being written would otherwise land after the clean-up below.
    await inFlight;
    await rollsRepository.fail(db, run.id, `Import failed: ${(err as Error).message}`, [], 0).catch(() => {});
    await rollsRepository.deleteRoll(db, run.id).catch(() => {});
    throw err;
  }
}
