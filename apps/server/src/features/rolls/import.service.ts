import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/database.ts';
import { fullCheck } from './full-check.ts';
import { notedSource, type ImportNotes } from './import-notes.ts';
import { PreparePool, defaultPoolSize } from './prepare-pool.ts';
import type { LineBlock } from './jsonl-records.ts';
import { prepareRecords, type PreparedBatch, type RollTarget, type SourceRecord } from './roll-rows.ts';
import { rollsRepository, type ImportRun } from './rolls.repository.ts';

/**
 * Opens the source; an import reads it once, streaming, so nothing is held in memory. A JSON Lines
 * file also offers its raw lines (`lineBlocks`) and its size (`bytes`): a large one is parsed on
 * worker threads.
 */
export type RecordSource = (() => AsyncIterable<SourceRecord>) & {
  lineBlocks?: () => AsyncIterable<LineBlock>;
  bytes?: number;
};

export interface ImportProgress {
  /** `indexing`: every record is written; the roll's indexes are being built before it is published. */
  phase: 'validating' | 'importing' | 'indexing' | 'done';
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
/** Rows per COPY (at least): large enough to amortise a round trip, small enough to keep memory flat. */
const BATCH = 1000;
/** …or this much COPY text: a sparse record is written with every field, so rows alone can be megabytes. */
const BATCH_BYTES = 1024 * 1024;
const PROGRESS_EVERY = 5000;
/**
 * Sort memory of each index build on PGlite (its default is 64 MB): larger sorts spill to temporary
 * files, while the engine's memory, which never shrinks, stays within the import's 1 GB budget.
 */
const PGLITE_SORT_MEMORY = '16MB';

export interface ImportOptions {
  /**
   * PostgreSQL server: build the new roll's indexes on two connections, and vacuum its table in the
   * background after the swap (sets the visibility map for index-only counts). PGlite runs one statement
   * at a time on the server's only thread, so it gets neither, and builds with less sort memory.
   */
  engine?: 'pglite' | 'postgres';
  /**
   * Worker threads that parse a JSON Lines file: by default a pool (one a core) for a file of
   * POOL_MIN_BYTES or more, none for a smaller one (starting threads costs more than it saves) or for
   * other sources; 0 parses on this thread.
   */
  threads?: number;
  /**
   * How long the replaced roll is kept after the swap before it is dropped, in ms (default 0: at once).
   * A reader that resolved the town's roll just before the swap (a request in flight, or a town row a
   * node caches for a moment) still finds the rows it asks for meanwhile. The wait ends early when
   * `signal` aborts (shutdown); the roll is then left to the next sweep.
   */
  retireAfterMs?: number;
  signal?: AbortSignal;
  /**
   * Problems only the whole file shows (a needed field empty on every record), asked once every record
   * is read: any refuses the roll like a line's problem.
   */
  finalProblems?: () => string[];
  /**
   * Notes every record as read (warnings, fill, values a mapping changed), on this thread or on the
   * import threads alike; a published run keeps their summary (import_runs.notes).
   */
  notes?: ImportNotes;
}

/** Files smaller than this are parsed on the importing thread. */
const POOL_MIN_BYTES = 8 * 1024 * 1024;

/**
 * The source's records, checked and in COPY text, a batch at a time and in file order. With a pool, blocks
 * of a JSON Lines file go to its threads, one more in flight than there are threads (each always has
 * work, little is held); without, records are prepared here, BATCH at a time. `checkOnly()` is read as
 * each batch starts.
 */
async function* preparedBatches(
  source: RecordSource,
  target: RollTarget,
  pool: Promise<PreparePool> | null,
  checkOnly: () => boolean,
  notes: ImportNotes | undefined,
): AsyncGenerator<PreparedBatch> {
  if (pool && source.lineBlocks) {
    const threads = await pool;
    const inFlight: Promise<PreparedBatch>[] = [];
    for await (const block of source.lineBlocks()) {
      const next = threads.prepare(block, target, checkOnly(), notes?.options ?? null);
      // Awaited in order below; until then a failure must not count as unhandled.
      next.catch(() => {});
      inFlight.push(next);
      if (inFlight.length > threads.size) yield await inFlight.shift()!;
    }
    while (inFlight.length) yield await inFlight.shift()!;
    return;
  }
  let items: SourceRecord[] = [];
  for await (const item of (notes ? notedSource(source, notes) : source)()) {
    items.push(item);
    if (items.length >= BATCH) {
      yield prepareRecords(items, target, { fullCheck, checkOnly: checkOnly() });
      items = [];
    }
  }
  if (items.length) yield prepareRecords(items, target, { fullCheck, checkOnly: checkOnly() });
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
  const retireAfterMs = options.retireAfterMs ?? 0;
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
  // One batch is written while the next is prepared: the database and the importer work side by side.
  let inFlight: Promise<void> | null = null;
  let written = 0;
  let pending: PreparedBatch[] = [];
  let pendingRows = 0;
  let pendingBytes = 0;
  let writeError: unknown = null;
  let checkingOnly = false;
  let taxYear: number | null = null;
  const waitForWrite = async () => {
    await inFlight;
    inFlight = null;
    if (writeError) throw writeError;
  };
  const afterWrite = async (rows: number) => {
    const before = written;
    written += rows;
    if (errorCount === 0) onProgress({ phase: 'importing', processed: written, total: null });
    if (Math.floor(written / PROGRESS_EVERY) !== Math.floor(before / PROGRESS_EVERY))
      await rollsRepository.updateProgress(db, run.id, { totalRecords: total, importedRecords: written });
  };
  const flush = async () => {
    await waitForWrite();
    // The batches' bytes go to the database as they are: joined, each flush was a copy of every byte
    // into fresh memory (on a machine slow to hand out memory, 0.4 s of CPU per 100,000 records).
    const copy = pending.map((b) => b.copy);
    const recordCopy = pending.map((b) => b.recordCopy);
    const historyCopy = pending.map((b) => b.historyCopy);
    const numberLike = pending.flatMap((b) => b.numberLike);
    const rows = pendingRows;
    pending = [];
    pendingRows = 0;
    pendingBytes = 0;
    // Only the write holds the text (no frame that outlives it does). Never rejects (a failure is kept
    // in writeError): nothing awaits it until the next batch is ready.
    inFlight = rollsRepository
      .copyRows(db, run.id, { rows: copy, records: recordCopy, history: historyCopy }, numberLike)
      .then(() => afterWrite(rows))
      .catch((err: unknown) => {
        writeError = err;
      });
  };

  const threads =
    options.threads ?? ((source.bytes ?? 0) >= POOL_MIN_BYTES ? defaultPoolSize(options.engine) : 0);
  // The threads start while the database makes the roll's tables.
  const pool = threads > 0 && source.lineBlocks ? PreparePool.start(threads) : null;
  // Awaited before the first block; a failure to start is that await's to report.
  pool?.catch(() => {});
  // Once the file is read (or the import fails): the threads' memory goes before the index builds.
  const closePool = async () => (await pool?.catch(() => null))?.close();

  try {
    // Rolls a crashed or failed run left behind go first: they would otherwise hold disk until a sweep.
    await rollsRepository.dropAbandonedRolls(db, retireAfterMs);
    await rollsRepository.createRollTable(db, run.id);
    await rollsRepository.updateProgress(db, run.id, {
      status: 'importing',
      totalRecords: 0,
      importedRecords: 0,
    });
    onProgress({ phase: 'importing', processed: 0, total: null });

    // Publishing is refused if another roll was published meanwhile (activate).
    const replacing = await rollsRepository.activeRollId(db, target.clientId);
    const rollTarget: RollTarget = { rollId: run.id, clientId: target.clientId };
    const batches = preparedBatches(source, rollTarget, pool, () => errorCount > 0, options.notes);
    for await (const batch of batches) {
      // An import thread's notes of its block, merged in file order.
      if (batch.notes) options.notes?.merge(batch.notes);
      for (const item of batch.records) {
        total++;
        if ('errors' in item) {
          for (const message of item.errors) report(message);
          continue;
        }
        const key = item.account.toUpperCase();
        const first = seen.get(key);
        if (first !== undefined) {
          report(`line ${item.line}: Account: ${item.account} appears again (first on line ${first})`);
          continue;
        }
        seen.set(key, item.line);
        // Only checking now: tell the watchers how far, at the pace the writes did.
        if (errorCount > 0 && total % PROGRESS_EVERY === 0) {
          onProgress({ phase: 'validating', processed: total, total: null });
          await rollsRepository.updateProgress(db, run.id, { totalRecords: total, errorCount });
        }
      }
      // A file with an error is rejected whole: from the first one on nothing more is written, and the
      // run says so (its watchers see the rest being checked, not an import that stopped moving).
      if (errorCount > 0) {
        if (!checkingOnly) {
          checkingOnly = true;
          await rollsRepository.updateProgress(db, run.id, {
            status: 'validating',
            totalRecords: total,
            errorCount,
          });
        }
        continue;
      }
      pending.push(batch);
      if (batch.taxYear !== null && (taxYear === null || batch.taxYear > taxYear)) taxYear = batch.taxYear;
      pendingRows += batch.rows;
      pendingBytes += batch.copy.length + batch.recordCopy.length;
      if (pendingRows >= BATCH || pendingBytes >= BATCH_BYTES) await flush();
    }
    await closePool();
    seen.clear();
    if (total === 0) report('the file holds no records');
    for (const problem of options.finalProblems?.() ?? []) report(problem);
    if (errorCount > 0) {
      pending = [];
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
    if (pendingRows) await flush();
    await waitForWrite();
    onProgress({ phase: 'indexing', processed: written, total: written });
    await rollsRepository.updateProgress(db, run.id, {
      totalRecords: total,
      importedRecords: written,
      indexing: true,
    });

    const postgres = options.engine === 'postgres';
    await rollsRepository.attachRollTable(
      db,
      run.id,
      postgres ? { parallel: 2 } : options.engine === 'pglite' ? { sortMemory: PGLITE_SORT_MEMORY } : {},
    );
    const previous = await rollsRepository.activate(db, target.clientId, run.id, written, {
      replacing,
      // A fiscal year the provider gave (kept on the run when it was created) wins over the records'.
      taxYear: run.taxYear ?? taxYear,
      notes: options.notes?.summary() ?? null,
    });
    onProgress({ phase: 'done', processed: written, total });
    if (postgres) void rollsRepository.vacuumRoll(db, run.id).catch(() => {});
    if (previous !== null && previous !== run.id && (await graceOver(retireAfterMs, options.signal)))
      await rollsRepository.deleteRoll(db, previous);
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
    await closePool();
    await rollsRepository.fail(db, run.id, `Import failed: ${(err as Error).message}`, [], 0).catch(() => {});
    await rollsRepository.deleteRoll(db, run.id).catch(() => {});
    throw err;
  }
}

/** Waits out a replaced roll's grace period. False when `signal` aborted (the roll is then kept). */
async function graceOver(ms: number, signal?: AbortSignal): Promise<boolean> {
  try {
    if (ms > 0) await sleep(ms, undefined, { signal });
  } catch {
    return false;
  }
  return !signal?.aborted;
}
