import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { importRuns } from '../../db/schema.ts';

/** The few writes the HTTP publisher adds to the import core's rolls repository. */
export const rollPublishingRepository = {
  /**
   * Records how far the run is: bytes of the file read (of `fileBytes`) and, while it writes, the rows
   * written. Progress writes are fire-and-forget and may arrive out of order on a connection pool, so
   * the figures only grow and a finished run is left alone.
   */
  async recordProgress(
    db: Executor,
    runId: number,
    progress: { imported?: number; bytesRead: number; fileBytes: number | null },
  ): Promise<void> {
    await db
      .update(importRuns)
      .set({
        ...(progress.imported === undefined
          ? {}
          : { importedRecords: sql`greatest(${importRuns.importedRecords}, ${progress.imported})` }),
        bytesRead: sql`greatest(${importRuns.bytesRead}, ${progress.bytesRead})`,
        fileBytes: progress.fileBytes,
        heartbeatAt: sql`now()`,
      })
      .where(and(eq(importRuns.id, runId), inArray(importRuns.status, ['validating', 'importing'])));
  },

  /** Proves the run's owner is alive; other nodes treat a run whose heartbeat stopped as abandoned. */
  async heartbeat(db: Executor, runId: number): Promise<void> {
    await db
      .update(importRuns)
      .set({ heartbeatAt: sql`now()` })
      .where(and(eq(importRuns.id, runId), sql`${importRuns.status} in ('validating', 'importing')`));
  },

  /**
   * Marks a run still in progress failed because the process running it died (its import lock is
   * free). False when it finished meanwhile.
   */
  async markInterrupted(db: Executor, runId: number, message: string): Promise<boolean> {
    const rows = await db
      .update(importRuns)
      .set({ status: 'failed', message, finishedAt: sql`now()` })
      .where(and(eq(importRuns.id, runId), inArray(importRuns.status, ['validating', 'importing'])))
      .returning({ id: importRuns.id });
    return rows.length > 0;
  },

  /** The client's in-progress run whose heartbeat stopped `staleSeconds` ago (judged by the database clock). */
  async findStaleRunning(db: Executor, clientId: number, staleSeconds: number): Promise<number | null> {
    const [row] = await db
      .select({ id: importRuns.id })
      .from(importRuns)
      .where(
        and(
          eq(importRuns.clientId, clientId),
          sql`${importRuns.status} in ('validating', 'importing')`,
          sql`${importRuns.heartbeatAt} < now() - make_interval(secs => ${staleSeconds})`,
        ),
      )
      .limit(1);
    return row?.id ?? null;
  },

  async findForClient(db: Executor, clientId: number, runId: number) {
    const [row] = await db
      .select()
      .from(importRuns)
      .where(and(eq(importRuns.id, runId), eq(importRuns.clientId, clientId)))
      .limit(1);
    return row ?? null;
  },
};
