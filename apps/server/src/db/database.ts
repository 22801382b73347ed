import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { getTableName, sql, type SQL } from 'drizzle-orm';
import { Cache } from 'drizzle-orm/cache/core';
import type { MutationOption } from 'drizzle-orm/cache/core';
import pg from 'pg';
import { from as copyFromStdin, to as copyToStdout } from 'pg-copy-streams';
import * as schema from './schema.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import { PgliteWorkerClient } from './pglite-client.ts';
import { copiedOut, createPglite } from './pglite-create.ts';
import { COPY_INPUT_PATH, copyFromPieces } from './pglite-copy-input.ts';
import { copyPieces, type CopyInput } from './copy-text.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; repositories accept either a Db or a Tx so a service can span several of them. */
export type Executor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export type Engine = 'pglite' | 'postgres';

export interface Database {
  readonly db: Db;
  readonly engine: Engine;
  /** Runs a script of several statements (migrations); not for user input. */
  execScript(text: string): Promise<void>;
  /** The same, all or nothing. */
  execScriptInTransaction(text: string): Promise<void>;
  close(): Promise<void>;
  /**
   * Bulk loading: `COPY <target> FROM …` with `data` as the input, in COPY's text format (a row a line,
   * tab-separated, `\N` for null). `target` is `table (column, …)`. Repositories reach it through
   * `copyFrom(db, …)` below. Bytes are UTF-8; on the embedded engine their buffer moves to its thread
   * (the caller's array is left empty) when the array spans the whole buffer. Bytes in pieces go as
   * they are: joining them first was a copy of every byte into fresh memory.
   */
  copyFrom(target: string, data: CopyInput): Promise<void>;
  /**
   * Bulk reading: the rows of `query` (SQL with its values written in: COPY takes no parameters) in
   * COPY's text format, as UTF-8 bytes in a buffer of their own. Repositories reach it through
   * `copyTo(db, …)` below. A row costs the engine its text and nothing more: read as result rows, each
   * value of each row was an object of its own, which on the embedded engine cost more than the query.
   */
  copyTo(query: string): Promise<Uint8Array>;
  /** The embedded database's folder (null: in memory, or a PostgreSQL server). */
  readonly dataDir?: string | null;
  /**
   * Embedded database only: a gzipped tarball of the whole data folder, taken between transactions
   * (features/backup). A PostgreSQL server is backed up with pg_dump instead.
   */
  snapshot?(): Promise<Blob>;
  /**
   * Calls `listener` with the tables an insert, update or delete of this process is about to write
   * (statements built with drizzle's query builders, not raw SQL), so in-process caches can forget.
   * Returns the unsubscribe function.
   */
  onTableWrite(listener: TableWriteListener): () => void;
}

export type TableWriteListener = (tables: string[]) => void;

/**
 * Drizzle's cache hook, used only for its mutation callback: it caches nothing ('explicit' and no
 * `$withCache` anywhere) and tells the listeners which tables a write touches.
 */
class WriteNotifier extends Cache {
  readonly listeners = new Set<TableWriteListener>();
  override strategy() {
    return 'explicit' as const;
  }
  override async get() {
    return undefined;
  }
  override async put() {}
  override async onMutate(params: MutationOption) {
    const raw =
      params.tables === undefined ? [] : Array.isArray(params.tables) ? params.tables : [params.tables];
    const tables = raw.map((t) => (typeof t === 'string' ? t : getTableName(t)));
    for (const listener of this.listeners) listener(tables);
  }
  subscribe(listener: TableWriteListener) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}

export type DatabaseOptions =
  | {
      engine: 'pglite';
      dataDir: string | null;
      /**
       * Run the engine in a worker thread (default): queries then never block the event loop
       * (decision 0007). `false` runs it on the calling thread.
       */
      worker?: boolean;
      /**
       * An in-memory database (`dataDir: null`, on the calling thread) starts as a copy of this
       * snapshot (`Database.snapshot()`) instead of an empty cluster: half the time initdb takes,
       * for the many short-lived databases the tests open.
       */
      from?: Blob;
    }
  | { engine: 'postgres'; url: string; poolSize?: number };

/**
 * Each open database by its drizzle handle, for COPY: drizzle has none, which needs the driver
 * underneath (a stream on a PostgreSQL connection, a blob for PGlite). Keyed by the handle so
 * repositories keep taking a `Db` like every other query.
 */
const databases = new WeakMap<object, Database>();

function databaseOf(db: Executor, what: string): Database {
  const database = databases.get(db);
  if (!database) throw new Error(`${what} needs a database handle from openDatabase, not a transaction`);
  return database;
}

/** `COPY <target> FROM …` on the database behind `db` (not a transaction: COPY runs on its own). */
export async function copyFrom(db: Executor, target: string, data: CopyInput): Promise<void> {
  await databaseOf(db, 'copyFrom').copyFrom(target, data);
}

/** `COPY (<query>) TO …` on the database behind `db`: Database.copyTo. */
export async function copyTo(db: Executor, query: string): Promise<Uint8Array> {
  return databaseOf(db, 'copyTo').copyTo(query);
}

/** The rows of a raw query, whichever driver ran it (both return `{ rows }`). */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database =
    options.engine === 'postgres'
      ? await openPostgres(options.url, options.poolSize ?? 10)
      : await openPglite(options.dataDir, options.worker ?? true, options.from);
  databases.set(database.db, database);
  return database;
}

async function openPglite(dataDir: string | null, inWorker: boolean, from?: Blob): Promise<Database> {
  if (from && (dataDir || inWorker))
    throw new Error('a database opened from a snapshot is in memory, on the calling thread');
  let lock: DataDirLock | null = null;
  let client: PgliteClient;
  // The lock stays with this process whichever thread runs the engine: one process per data folder.
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    // PGlite has no lock of its own: two processes on one folder would corrupt it.
    lock = acquireDataDirLock(dataDir);
  }
  const dataPath = dataDir ? path.join(dataDir, 'pglite') : null;
  try {
    client = inWorker ? await PgliteWorkerClient.start(dataPath) : await openInProcess(dataPath, from);
  } catch (err) {
    lock?.release();
    throw err;
  }
  const notifier = new WriteNotifier();
  const db = drizzlePglite({ client: client as unknown as PGlite, schema, cache: notifier }) as unknown as Db;
  return {
    db,
    onTableWrite: (listener) => notifier.subscribe(listener),
    engine: 'pglite',
    dataDir,
    async snapshot() {
      return client.dumpDataDir('gzip');
    },
    async copyFrom(target, data) {
      await client.copyFrom(`copy ${target} from '${COPY_INPUT_PATH}'`, data);
    },
    async copyTo(query) {
      return client.copyTo(`copy (${query}) to '/dev/blob'`);
    },
    async execScript(text) {
      await client.exec(text);
    },
    async execScriptInTransaction(text) {
      await client.transaction(async (tx) => {
        await tx.exec(text);
      });
    },
    async close() {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/** What both PGlite clients offer: drizzle's needs, a snapshot, bulk loading, close. */
interface PgliteClient {
  exec(sql: string): Promise<unknown>;
  copyFrom(sql: string, data: CopyInput): Promise<void>;
  copyTo(sql: string): Promise<Uint8Array>;
  transaction<T>(callback: (tx: { exec(sql: string): Promise<unknown> }) => Promise<T>): Promise<T>;
  dumpDataDir(compression: 'gzip'): Promise<Blob>;
  close(): Promise<void>;
}

/** The engine on the calling thread (`worker: false`): simpler to debug, but a query blocks the event loop. */
async function openInProcess(dataPath: string | null, from?: Blob): Promise<PgliteClient> {
  const pg = await createPglite(dataPath, from);
  return Object.assign(pg, {
    async copyFrom(sql: string, data: CopyInput) {
      await copyFromPieces(pg, sql, data);
    },
    async copyTo(sql: string) {
      return copiedOut(await pg.query(sql));
    },
    async dumpDataDir() {
      await pg.exec('checkpoint');
      // Holding the transaction lock keeps every other transaction out: the copy is taken between them.
      return pg.transaction(async () => PGlite.prototype.dumpDataDir.call(pg, 'gzip'));
    },
  });
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  try {
    const c = await pool.connect();
    c.release();
  } catch (err) {
    await pool.end().catch(() => {});
    throw new Error(`Cannot reach the PostgreSQL server at ${redactUrl(url)}: ${(err as Error).message}`);
  }
  const notifier = new WriteNotifier();
  const db = drizzlePg({ client: pool, schema, cache: notifier }) as unknown as Db;
  return {
    db,
    onTableWrite: (listener) => notifier.subscribe(listener),
    engine: 'postgres',
    async execScript(text) {
      // No parameters: node-postgres uses the simple protocol, which accepts several statements.
      await pool.query(text);
    },
    async copyFrom(target, data) {
      const c = await pool.connect();
      try {
        const stream = c.query(copyFromStdin(`copy ${target} from stdin`));
        // Each piece becomes a CopyData message of its own (they need not match rows).
        await pipeline(
          Readable.from(
            copyPieces(data).map((p) =>
              typeof p === 'string' ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength),
            ),
          ),
          stream,
        );
      } finally {
        c.release();
      }
    },
    async copyTo(query) {
      const c = await pool.connect();
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of c.query(copyToStdout(`copy (${query}) to stdout`)))
          chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      } finally {
        c.release();
      }
    },
    async execScriptInTransaction(text) {
      const c = await pool.connect();
      try {
        await c.query('begin');
        await c.query(text);
        await c.query('commit');
      } catch (err) {
        await c.query('rollback').catch(() => {});
        throw err;
      } finally {
        c.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured DATABASE_URL';
  }
}

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
