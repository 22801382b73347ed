import fs from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { PREVIEW_RECORDS, type ImportRunDto, type RollPreviewDto } from '@opp/contracts';
import { databaseFor, type Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { conflict, notFound, validationFailed } from '../../errors.ts';
import type { auditActorOf } from '../audit/audit.service.ts';
import { clientsService } from '../clients/clients.service.ts';
import type { ImportOptions, ImportProgress, RecordSource } from './import.service.ts';
import { rollImportService, RollInputError, type RollInput } from './roll-import.service.ts';
import { notesDto } from './import-notes.ts';
import type { ImportRun } from './rolls.repository.ts';
import { rollsService } from './rolls.service.ts';
import { importLockHeld, tryImportLock } from './import-lock.ts';
import { rollPublishingRepository } from './roll-publishing.repository.ts';
import type { RollUpload } from './roll-upload.ts';

/** How often a running import records that it is alive (progress; on PostgreSQL its lock is import-lock.ts). */
export const HEARTBEAT_MS = 15_000;
/**
 * Embedded engine: a run whose heartbeat is older than this is abandoned (its process died). On
 * PostgreSQL a run is abandoned as soon as its process's import lock is free.
 */
export const STALE_SECONDS = 120;
/** What an interrupted run says (its process was killed or crashed). */
export const INTERRUPTED_MESSAGE =
  'Interrupted: the process running this import stopped before it finished (it was killed or crashed). ' +
  'Nothing from it was published; publish the file again.';
/** At most one progress write a second: other nodes read progress from the run's row. */
const PROGRESS_WRITE_MS = 1_000;

export function toImportRunDto(run: ImportRun): ImportRunDto {
  return {
    RunID: run.id,
    ClientID: run.clientId,
    Actor: run.actor,
    FileName: run.fileName,
    Status: run.status,
    TotalRecords: run.totalRecords,
    ImportedRecords: run.importedRecords,
    FileBytes: run.fileBytes,
    BytesRead: run.bytesRead,
    ExpectedRecords: run.expectedRecords,
    Indexing: run.status === 'importing' && run.indexing,
    ErrorCount: run.errorCount,
    Errors: run.errors,
    Message: run.message,
    StartedAt: run.startedAt.toISOString(),
    FinishedAt: run.finishedAt ? run.finishedAt.toISOString() : null,
    Format: run.sourceFormat,
    Mapping: run.sourceMapping,
    SourceFiles: run.sourceFiles,
    ...notesDto(run.notes),
  };
}

const alreadyRunning = (run: { fileName: string } | null) =>
  conflict(
    `A roll is already being published for this client${run ? ` (${run.fileName})` : ''}; wait for it to finish.`,
  );

/**
 * Ends the client's run whose process died: on PostgreSQL one whose import lock nobody holds (known at
 * once), on the embedded engine one whose heartbeat stopped. A caller that holds the client's lock itself
 * (`holdsLock`: its advisory lock, or the embedded engine's data folder, which makes it the only process
 * that can publish) knows any run in progress is dead. The run is marked interrupted and its rows swept.
 * A roll replaced less than `keepReplacedMs` ago is kept (readers may still use it). Returns the run it
 * ended, if any.
 */
export async function reclaimStaleRun(
  db: Db,
  clientId: number,
  keepReplacedMs = 0,
  { holdsLock = false } = {},
): Promise<ImportRun | null> {
  const postgres = databaseFor(db).engine === 'postgres';
  if (holdsLock || postgres) {
    const running = await rollsService.findRunning(db, clientId);
    // The lock is taken before a run is created and freed after it ends: a run in progress whose lock
    // nobody holds belongs to a process that died.
    const dead = running !== null && (holdsLock || !(await importLockHeld(db, clientId)));
    const ended =
      dead && (await rollPublishingRepository.markInterrupted(db, running.id, INTERRUPTED_MESSAGE));
    // The embedded engine's folder is the lock of every client: any run in progress is dead.
    if (holdsLock && !postgres) await rollsService.sweepAbandoned(db, 0, keepReplacedMs);
    else if (ended) await rollsService.dropAbandonedRolls(db, keepReplacedMs);
    return ended ? running : null;
  }
  const stale = await rollPublishingRepository.findStaleRunning(db, clientId, STALE_SECONDS);
  if (!stale) return null;
  await rollsService.sweepAbandoned(db, STALE_SECONDS, keepReplacedMs);
  return rollPublishingRepository.findForClient(db, clientId, stale);
}

/** How a claim on a client for `portal import` went. */
export type ProcessClaim =
  | { ok: true; interrupted: ImportRun | null }
  | { ok: false; otherProcess: boolean; running: ImportRun | null };

/**
 * Claims the client for an import run by this process itself (`portal import`): takes the client's
 * import lock (held until the process's database closes or the process dies) and ends the run a dead
 * process left behind (`interrupted`). Refused while another process holds the lock, or (embedded
 * engine) a run is still recorded in progress.
 */
export async function claimForProcess(
  db: Db,
  clientId: number,
  keepReplacedMs: number,
): Promise<ProcessClaim> {
  if (!(await tryImportLock(db, clientId)))
    return { ok: false, otherProcess: true, running: await rollsService.findRunning(db, clientId) };
  // With the lock held here, nothing else can be running an import of this client.
  const interrupted = await reclaimStaleRun(db, clientId, keepReplacedMs, { holdsLock: true });
  const running = await rollsService.findRunning(db, clientId);
  if (running) return { ok: false, otherProcess: false, running };
  return { ok: true, interrupted };
}

async function requireClient(db: Db, clientId: number) {
  const client = await clientsService.findById(db, clientId);
  if (!client) throw notFound('No such client');
  return client;
}

/** Stops reading the file once the server is shutting down; the import core then fails the run. */
function abortable(source: RecordSource, signal: AbortSignal): RecordSource {
  const check = () => {
    if (signal.aborted) throw new Error('the server stopped during the import; publish the file again');
  };
  const records = async function* () {
    for await (const item of source()) {
      check();
      yield item;
    }
  };
  const { lineBlocks } = source;
  if (!lineBlocks) return records;
  return Object.assign(records, {
    bytes: source.bytes,
    lineBlocks: async function* () {
      for await (const block of lineBlocks()) {
        check();
        yield block;
      }
    },
  });
}

interface Job {
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Runs roll imports in the background of this API node. The uploaded file is already on local disk; the
 * run's row (validating/importing, with its progress) is shared by every node, so the browser that
 * started an import may close and any node can report its progress. The per-client lock is
 * import-lock.ts (and the unique index on a client's running run).
 */
export class RollPublisher {
  private readonly jobs = new Map<number, Job>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly options: Pick<ImportOptions, 'engine' | 'retireAfterMs'> = {},
  ) {}

  /** Throws 404 for an unknown client and 409 while one of its imports runs; cheap, before an upload. */
  async assertCanStart(clientId: number): Promise<void> {
    await requireClient(this.db, clientId);
    await reclaimStaleRun(this.db, clientId, this.options.retireAfterMs);
    const running = await rollsService.findRunning(this.db, clientId);
    if (running) throw alreadyRunning(running);
  }

  /**
   * Takes the client's lock by creating its run, then validates and imports the opened upload in the
   * background (its folder is deleted when done). Returns the new run at once. Throws 404 or 409 as
   * above; the caller then still owns the folder.
   */
  async start(input: {
    clientId: number;
    userId: number;
    actor: string;
    roll: RollInput;
    /** The upload's temporary folder. */
    folder: string;
    /** The bytes a plain roll file's reading reports progress against; null for a mapped export. */
    fileBytes: number | null;
    /** The records the confirmed preview counted; null when the upload did not say. */
    expectedRecords: number | null;
    audit: ReturnType<typeof auditActorOf>;
  }): Promise<ImportRunDto> {
    await this.assertCanStart(input.clientId);
    // Held by this node until the import ends (or this process dies): import-lock.ts.
    const lock = await tryImportLock(this.db, input.clientId);
    if (!lock) throw alreadyRunning(await rollsService.findRunning(this.db, input.clientId));
    let run: ImportRun;
    try {
      run = await rollImportService.createRun(
        this.db,
        {
          clientId: input.clientId,
          userId: input.userId,
          actor: input.actor,
          expectedRecords: input.expectedRecords,
        },
        input.roll,
        input.audit,
      );
    } catch (err) {
      await lock.release();
      // Another node (or request) took the lock between the check and the insert.
      if (isUniqueViolation(err)) throw alreadyRunning(null);
      throw err;
    }
    const abort = new AbortController();
    // Freed at the swap: the import then only waits out the replaced roll's grace period, and a
    // provider who publishes again at once (a corrected file) must not be told an import is running.
    let freed: Promise<void> | null = null;
    // A session that fails to close has lost its connection, which frees the lock all the same.
    const free = () => (freed ??= lock.release().catch(() => {}));
    const done = this.run(run, { ...input, onPublished: free }, abort.signal).finally(async () => {
      this.jobs.delete(run.id);
      await free();
    });
    this.jobs.set(run.id, { abort, done });
    return toImportRunDto(run);
  }

  private async run(
    run: ImportRun,
    input: {
      clientId: number;
      roll: RollInput;
      folder: string;
      fileBytes: number | null;
      onPublished: () => void;
    },
    signal: AbortSignal,
  ): Promise<void> {
    const beat = setInterval(() => {
      rollPublishingRepository.heartbeat(this.db, run.id).catch(() => {});
    }, HEARTBEAT_MS);
    beat.unref();
    let lastWrite = 0;
    let lastPhase: ImportProgress['phase'] | null = null;
    // The share of the file read is the progress a watcher can use: the record total is known only at
    // the end of the one pass that checks and writes.
    const { fileBytes } = input;
    let bytesRead = 0;
    const onRead = (bytes: number) => {
      bytesRead = bytes;
    };
    try {
      const outcome = await rollImportService.publish(
        this.db,
        run,
        abortable(input.roll.source({ onRead }), signal),
        (p) => {
          // At the swap, not when importRoll returns: that waits out the replaced roll's grace period.
          if (p.phase === 'done') {
            this.log.info(
              { runId: run.id, clientId: input.clientId, records: p.processed },
              'roll published',
            );
            input.onPublished();
            return;
          }
          // At most once a second, but a new phase's first figures at once.
          if (p.phase === lastPhase && Date.now() - lastWrite < PROGRESS_WRITE_MS) return;
          lastWrite = Date.now();
          lastPhase = p.phase;
          // While only checking (a problem stopped the writing), `processed` counts records checked.
          const imported = p.phase === 'validating' ? undefined : p.processed;
          rollPublishingRepository
            .recordProgress(this.db, run.id, { imported, bytesRead, fileBytes })
            .catch(() => {});
        },
        { ...this.options, signal, checks: input.roll },
      );
      if (!outcome.ok)
        this.log.info(
          { runId: run.id, clientId: input.clientId, records: outcome.total, errors: outcome.errorCount },
          'roll rejected',
        );
    } catch (err) {
      // The import core has already marked the run failed and dropped its rows.
      this.log.error({ err, runId: run.id, clientId: input.clientId }, 'roll import failed');
    } finally {
      clearInterval(beat);
      await fs.rm(input.folder, { recursive: true, force: true }).catch(() => {});
    }
  }

  /** Resolves when the run's background work on this node has finished (tests; shutdown). */
  async waitFor(runId: number): Promise<void> {
    await this.jobs.get(runId)?.done;
  }

  /** Shutdown: stop every import (each run is marked failed, its rows removed) and wait for them. */
  async close(): Promise<void> {
    for (const job of this.jobs.values()) job.abort.abort();
    await Promise.allSettled([...this.jobs.values()].map((j) => j.done));
  }
}

/**
 * The upload opened as records, read as the provider chose; why it cannot be read is a 400 naming the
 * part (the format, the mapping file or the files) and every problem, before anything is written.
 */
export async function openUpload(upload: RollUpload): Promise<RollInput> {
  if (upload.reading.format !== undefined && upload.reading.mappingFile !== undefined)
    throw validationFailed('mapping', 'Choose a format or send a mapping file, not both.');
  try {
    return await rollImportService.open(upload.reading, upload.files);
  } catch (err) {
    if (!(err instanceof RollInputError)) throw err;
    const problems = err.problems.join('; ');
    if (err.stage === 'roll-file')
      throw validationFailed('file', 'The roll must be a JSON Lines (.jsonl) or CSV (.csv) file.');
    if (err.stage === 'files')
      throw validationFailed('file', `The files do not fit ${err.subject}: ${problems}`);
    if (upload.reading.format !== undefined)
      throw validationFailed('format', `The format ${err.subject} cannot be used: ${problems}`);
    throw validationFailed('mapping', `The mapping file ${err.subject} cannot be used: ${problems}`);
  }
}

export const rollPublishingService = {
  /** The built-in formats, for the console's choice. */
  formats: () => rollImportService.formats(),

  /**
   * What publishing the upload would do (records, fill rates, unused columns, the first records as
   * mapped, problems), found exactly as the import checks it; nothing is written. The console then
   * sends the same files to publish: each node keeps nothing between the two requests.
   */
  async preview(db: Db, clientId: number, upload: RollUpload): Promise<RollPreviewDto> {
    await requireClient(db, clientId);
    const input = await openUpload(upload);
    return rollImportService.previewDto(
      input,
      await rollImportService.check(input, { sample: PREVIEW_RECORDS, town: { db, clientId } }),
    );
  },

  /** The client's publishing history, newest first. */
  async history(db: Db, clientId: number, keepReplacedMs: number): Promise<ImportRunDto[]> {
    await requireClient(db, clientId);
    await reclaimStaleRun(db, clientId, keepReplacedMs);
    return (await rollsService.listRuns(db, clientId)).map(toImportRunDto);
  },

  /** One run, for progress polling. 404 when the run is not this client's. */
  async getRun(db: Db, clientId: number, runId: number, keepReplacedMs: number): Promise<ImportRunDto> {
    await reclaimStaleRun(db, clientId, keepReplacedMs);
    const run = await rollPublishingRepository.findForClient(db, clientId, runId);
    if (!run) throw notFound('No such import for this client');
    return toImportRunDto(run);
  },
};
