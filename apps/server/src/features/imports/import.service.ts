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

/** Opens the source afresh: validation and writing each read the file once, so nothing is held in memory. */
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

/**
 * Publishes a town's roll: validates every record first (a file with any error changes nothing), then
 * writes the new roll beside the published one and swaps it in atomically. Throws only on
 * infrastructure failure; a bad file is an outcome with `ok: false`.
 */
export async function importRoll(
  db: Db,
  target: { clientId: number; userId: number | null; actor: string; fileName: string; runId?: number },
  source: RecordSource,
  onProgress: (p: ImportProgress) => void = () => {},
): Promise<ImportOutcome> {
  const run = target.runId
    ? (await rollsRepository.findRun(db, target.runId))!
    : await rollsRepository.createRun(db, target);

  const errors: string[] = [];
  let errorCount = 0;
  let total = 0;
  const seen = new Map<string, number>();
  const report = (msg: string) => {
    errorCount++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push(msg);
  };
  // One batch is written while the next is parsed: on a PostgreSQL server the two run on two cores.
  let inFlight: Promise<void> | null = null;

  try {
    for await (const item of source()) {
      total++;
      if ('error' in item) {
        report(`line ${item.line}: ${item.error}`);
        continue;
      }
      let account: string;
      const fast = fastParseRecord(item.value);
      if (fast) account = fast.Account;
      else {
        const parsed = PropertyRecord.safeParse(item.value);
        if (!parsed.success) {
          for (const issue of parsed.error.issues)
            report(formatIssue(item.line, issue.path, issue.message, item.field?.(issue.path)));
          continue;
        }
        account = parsed.data.Account;
      }
      const key = account.toUpperCase();
      const first = seen.get(key);
      if (first !== undefined)
        report(`line ${item.line}: Account: ${account} appears again (first on line ${first})`);
      else seen.set(key, item.line);
      if (total % PROGRESS_EVERY === 0) {
        onProgress({ phase: 'validating', processed: total, total: null });
        await rollsRepository.updateProgress(db, run.id, { totalRecords: total });
      }
    }
    if (total === 0) report('the file holds no records');
    if (errorCount > 0) {
      await rollsRepository.fail(
        db,
        run.id,
        `${errorCount} problem${errorCount === 1 ? '' : 's'} found; nothing was changed`,
        errors,
        errorCount,
      );
      return { run: (await rollsRepository.findRun(db, run.id))!, ok: false, total, errors, errorCount };
    }

    seen.clear();
    await rollsRepository.updateProgress(db, run.id, {
      status: 'importing',
      totalRecords: total,
      importedRecords: 0,
    });
    onProgress({ phase: 'importing', processed: 0, total });
    let written = 0;
    let read = 0;
    let batch: PropertyRow[] = [];
    let writeError: unknown = null;
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
          onProgress({ phase: 'importing', processed: written, total });
          if (Math.floor(written / PROGRESS_EVERY) !== Math.floor(before / PROGRESS_EVERY))
            await rollsRepository.updateProgress(db, run.id, { importedRecords: written });
        } catch (err) {
          writeError = err;
        }
      })();
    };
    const waitForWrite = async () => {
      await inFlight;
      inFlight = null;
      if (writeError) throw writeError;
    };
    for await (const item of source()) {
      // Validated above; a file that changed between the passes is caught here.
      if ('error' in item) throw new Error(`line ${item.line} changed while importing: ${item.error}`);
      read++;
      batch.push(toPropertyRow(fastParseRecord(item.value) ?? PropertyRecord.parse(item.value)));
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length) await flush();
    await waitForWrite();
    if (written !== total || read !== total)
      throw new Error(`the file changed while importing (${total} records validated, ${read} read)`);

    const previous = await rollsRepository.activate(db, target.clientId, run.id, written);
    onProgress({ phase: 'done', processed: written, total });
    if (previous !== null && previous !== run.id) await rollsRepository.deleteRollRows(db, previous);
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
    await rollsRepository.deleteRollRows(db, run.id).catch(() => {});
    throw err;
  }
}
