import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';

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
  /** The embedded database's folder (null: in memory, or a PostgreSQL server). */
  readonly dataDir?: string | null;
  /**
   * Embedded database only: a gzipped tarball of the whole data folder, taken between transactions
   * (features/backup). A PostgreSQL server is backed up with pg_dump instead.
   */
  snapshot?(): Promise<Blob>;
}

export type DatabaseOptions =
  { engine: 'pglite'; dataDir: string | null } | { engine: 'postgres'; url: string; poolSize?: number };

/** The rows of a raw query, whichever driver ran it (both return `{ rows }`). */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.engine === 'postgres') return openPostgres(options.url, options.poolSize ?? 10);
  return openPglite(options.dataDir);
}

async function openPglite(dataDir: string | null): Promise<Database> {
  let lock: DataDirLock | null = null;
  let client: PGlite;
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    // PGlite has no lock of its own: two processes on one folder would corrupt it.
    lock = acquireDataDirLock(dataDir);
    try {
      client = await PGlite.create(path.join(dataDir, 'pglite'));
    } catch (err) {
      lock.release();
      throw err;
    }
  } else {
    client = await PGlite.create();
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    dataDir,
    async snapshot() {
      await client.exec('checkpoint');
      // Holding the transaction lock keeps every other transaction out: the copy is taken between them.
      return client.transaction(async () => client.dumpDataDir('gzip'));
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
      await client.close();
      lock?.release();
    },
  };
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
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    engine: 'postgres',
    async execScript(text) {
      // No parameters: node-postgres uses the simple protocol, which accepts several statements.
      await pool.query(text);
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
