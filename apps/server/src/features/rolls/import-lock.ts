import { sql } from 'drizzle-orm';
import { databaseFor, queryRows, type Db } from '../../db/database.ts';

/*
 * One import per client at a time, across every process that can publish (API nodes and `portal import`).
 *
 * On PostgreSQL the lock is a session-level advisory lock on a connection the importing process holds
 * for the whole import. The server releases it the moment that session ends, so a process that is
 * killed (SIGKILL, OOM, a lost host) frees the lock at once: the next import sees a run still marked in
 * progress whose lock nobody holds, marks it interrupted and goes ahead (issue 37: a heartbeat that
 * had to go stale first made the next `portal import` refuse for two minutes). The run's heartbeat is
 * now only its progress.
 *
 * On the embedded engine the data folder's lock (db/data-dir-lock.ts) already makes one process the
 * only one that can publish; that process knows its own imports.
 */

/** The advisory lock's first key (the second is the client id): imports, apart from every other lock. */
const IMPORT_LOCK_CLASS = 8086002;

export interface ImportLock {
  /** Lets the next import of the client start (also released when this process dies). */
  release(): Promise<void>;
}

const NOTHING_HELD: ImportLock = { release: async () => {} };

/** Takes the client's import lock; null when a live process holds it. */
export async function tryImportLock(db: Db, clientId: number): Promise<ImportLock | null> {
  const database = databaseFor(db);
  if (database.engine !== 'postgres' || !database.openSession) return NOTHING_HELD;
  const session = await database.openSession();
  try {
    const [row] = await session.query<{ locked: boolean }>('select pg_try_advisory_lock($1, $2) as locked', [
      IMPORT_LOCK_CLASS,
      clientId,
    ]);
    if (row?.locked) return { release: () => session.close() };
  } catch (err) {
    await session.close();
    throw err;
  }
  await session.close();
  return null;
}

/**
 * Whether a live process holds the client's import lock (PostgreSQL; the lock table is read, nothing
 * is taken). Always false on the embedded engine, which has no such lock.
 */
export async function importLockHeld(db: Db, clientId: number): Promise<boolean> {
  if (databaseFor(db).engine !== 'postgres') return false;
  const [row] = await queryRows<{ held: boolean }>(
    db,
    sql`select exists (
          select 1 from pg_locks
           where locktype = 'advisory' and granted
             and database = (select oid from pg_database where datname = current_database())
             and classid = ${IMPORT_LOCK_CLASS}::int8::oid and objid = ${clientId}::int8::oid
             and objsubid = 2
        ) as held`,
  );
  return row?.held ?? false;
}
