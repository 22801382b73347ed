import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { from as copyFromStdin, to as copyToStdout } from 'pg-copy-streams';
import * as schema from './schema.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import { PgliteWorkerClient } from './pglite-client.ts';
import { copiedIn, copiedOut, createPglite, restrictDataFolder } from './pglite-create.ts';
import { copyPieces, type CopyInput } from './copy-text.ts';

type DrizzleDb = PgDatabase<PgQueryResultHKT, typeof schema>;
/**
 * A database handle from openDatabase: drizzle's, carrying the Database it belongs to. COPY needs the
 * driver underneath (a stream on a PostgreSQL connection, a blob for PGlite), which drizzle has no way
 * to; through the handle, repositories keep taking a `Db` like every other query.
 */
export type Db = DrizzleDb & { readonly $database: Database };
/** A transaction handle; repositories accept either a Db or a Tx so a service can span several of them. */
export type Executor = Db | Parameters<Parameters<DrizzleDb['transaction']>[0]>[0];

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
   * PostgreSQL only: a connection of its own, outside the pool, for a session-level advisory lock
   * (features/rolls/import-lock.ts): the server releases it when the session ends, which a
   * killed process's does at once. Sessions still open are closed with the database.
   */
  openSession?(): Promise<DbSession>;
}

/** A connection of its own (Database.openSession). */
export interface DbSession {
  query<T>(text: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
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
       * A new database (in memory, or a new data folder; on the calling thread) starts as a copy of
       * this snapshot (`Database.snapshot()`) instead of an empty cluster: half the time initdb takes,
       * for the many short-lived databases the tests open.
       */
      from?: Blob;
    }
  | { engine: 'postgres'; url: string; poolSize?: number };

/** The database a handle from openDatabase belongs to (its engine, its sessions). */
export function databaseFor(db: Db): Database {
  return databaseOf(db, 'databaseFor');
}

function databaseOf(db: Executor, what: string): Database {
  if (!('$database' in db))
    throw new Error(`${what} needs a database handle from openDatabase, not a transaction`);
  return db.$database;
}

/** `COPY <target> FROM …` on the database behind `db` (not a transaction: COPY runs on its own). */
export async function copyFrom(db: Executor, target: string, data: CopyInput): Promise<void> {
  refuseInsideTransaction(db);
  await databaseOf(db, 'copyFrom').copyFrom(target, data);
}

/** `COPY (<query>) TO …` on the database behind `db`: Database.copyTo. */
export async function copyTo(db: Executor, query: string): Promise<Uint8Array> {
  refuseInsideTransaction(db);
  return databaseOf(db, 'copyTo').copyTo(query);
}

/**
 * The transaction the running code is inside (a callback of `db.transaction`, and everything it awaits),
 * while it is open. Code that then uses the database itself rather than the transaction's handle would
 * wait on PGlite, one connection, for the transaction it is part of: for ever. On PostgreSQL it would run
 * on another connection, outside the transaction. Both engines refuse it at once instead.
 */
const openTransaction = new AsyncLocalStorage<{ db: object; open: boolean }>();

export class DatabaseUseInTransactionError extends Error {
  constructor() {
    super(
      'the database was used directly inside one of its transactions: use the transaction (tx) there, ' +
        'or the call would wait for the transaction to end (embedded engine) or run outside it',
    );
  }
}

function refuseInsideTransaction(db: object): void {
  const transaction = openTransaction.getStore();
  if (transaction?.open && transaction.db === db) throw new DatabaseUseInTransactionError();
}

/**
 * Marks the callbacks of `db.transaction` (see openTransaction), and refuses a transaction begun on `db`
 * inside one (a nested one goes through `tx.transaction`, a savepoint).
 */
function markTransactions(db: Db): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((callback, config) => {
    refuseInsideTransaction(db);
    return transaction(async (tx) => {
      const marker = { db, open: true };
      try {
        return await openTransaction.run(marker, () => callback(tx));
      } finally {
        marker.open = false;
      }
    }, config);
  }) as Db['transaction'];
}

/** `target`'s methods refuse to run inside a transaction of `db`: the engine's ways in outside one. */
function refuseInside<T extends object>(target: T, methods: (keyof T & string)[], db: object): void {
  for (const name of methods) {
    const method = target[name] as (...args: unknown[]) => unknown;
    Object.assign(target, {
      [name]: (...args: unknown[]) => {
        refuseInsideTransaction(db);
        return method.apply(target, args);
      },
    });
  }
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
  Object.defineProperty(database.db, '$database', { value: database });
  return database;
}

async function openPglite(dataDir: string | null, inWorker: boolean, from?: Blob): Promise<Database> {
  if (from && inWorker) throw new Error('a database opened from a snapshot opens on the calling thread');
  let lock: DataDirLock | null = null;
  let client: PgliteClient;
  // The lock stays with this process whichever thread runs the engine: one process per data folder.
  if (dataDir) {
    restrictDataFolder(dataDir);
    // PGlite has no lock of its own: two processes on one folder would corrupt it.
    lock = acquireDataDirLock(dataDir);
  }
  const dataPath = dataDir ? path.join(dataDir, 'pglite') : null;
  try {
    client = inWorker ? await PgliteWorkerClient.start(dataPath) : await openInProcess(dataPath, from);
    // Again once the engine has run: a new database's files (initdb) and the lock file are private too.
    if (dataDir) restrictDataFolder(dataDir);
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db;
  // Statements outside a transaction reach the engine through these; a transaction's through its tx.
  refuseInside(client, ['query', 'exec'], db);
  markTransactions(db);
  return {
    db,
    engine: 'pglite',
    dataDir,
    async snapshot() {
      return client.dumpDataDir('gzip');
    },
    async copyFrom(target, data) {
      await client.copyFrom(`copy ${target} from '/dev/blob'`, data);
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
  query(sql: string, params?: unknown[], options?: object): Promise<unknown>;
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
      await copiedIn(pg, sql, data);
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
  const sessions = new Set<() => Promise<void>>();
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  // Statements outside a transaction go to the pool; a transaction's to the connection it holds.
  refuseInside(pool, ['query'], db);
  markTransactions(db);
  return {
    db,
    engine: 'postgres',
    async openSession() {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      // A session lost to a server restart must not crash the process (its lock is gone with it).
      client.on('error', () => {});
      await client.connect();
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        sessions.delete(close);
        await client.end().catch(() => {});
      };
      sessions.add(close);
      return {
        async query<T>(text: string, values?: unknown[]) {
          return (await client.query(text, values)).rows as T[];
        },
        close,
      };
    },
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
      await Promise.all([...sessions].map((end) => end()));
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
