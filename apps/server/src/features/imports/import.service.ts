import { PropertyRecord } from '@opp/contracts';
import type { Db } from '../../db/database.ts';
import { toPropertyRow, type PropertyRow } from '../properties/property-row.ts';
import { rollsRepository, type ImportRun } from './rolls.repository.ts';

/** One parsed input record, with the line (JSONL) or row (CSV) it came from, or a parse error there. */
export type SourceRecord = { line: number; value: unknown } | { line: number; error: string };

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
const BATCH = 500;

/** A zod issue as a person reads it: `line 812: Sales[0].SalePrice: expected a number, got "N/A"`. */
export function formatIssue(line: number, path: PropertyKey[], message: string): string {
  const where = path.reduce<string>(
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

  try {
    for await (const item of source()) {
      total++;
      if ('error' in item) {
        report(`line ${item.line}: ${item.error}`);
        continue;
      }
      const parsed = PropertyRecord.safeParse(item.value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) report(formatIssue(item.line, issue.path, issue.message));
        continue;
      }
      const account = parsed.data.Account.toUpperCase();
      const first = seen.get(account);
      if (first !== undefined)
        report(`line ${item.line}: Account: ${parsed.data.Account} appears again (first on line ${first})`);
      else seen.set(account, item.line);
      if (total % 5000 === 0) {
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
    let written = 0;
    let batch: PropertyRow[] = [];
    const flush = async () => {
      await rollsRepository.insertRows(db, run.id, target.clientId, batch);
      written += batch.length;
      batch = [];
      onProgress({ phase: 'importing', processed: written, total });
      if (written % 5000 < BATCH)
        await rollsRepository.updateProgress(db, run.id, { importedRecords: written });
    };
    for await (const item of source()) {
      // Validated above; a file that changed between the passes is caught here.
      if ('error' in item) throw new Error(`line ${item.line} changed while importing: ${item.error}`);
      batch.push(toPropertyRow(PropertyRecord.parse(item.value)));
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length) await flush();
    if (written !== total)
      throw new Error(`the file changed while importing (${total} records validated, ${written} read)`);

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
    await rollsRepository.fail(db, run.id, `Import failed: ${(err as Error).message}`, [], 0).catch(() => {});
    await rollsRepository.deleteRollRows(db, run.id).catch(() => {});
    throw err;
  }
}
