import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database, type Db } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';

/*
 * A fresh, migrated database per test file: in-memory PGlite by default, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL (created here, dropped when the file is done).
 */

export const testEngine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

export interface TestDatabase {
  database: Database;
  /** Connection URL when on PostgreSQL (for tests that start a second process or node). */
  url: string | null;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * PGlite: a data folder on disk (removed when the file is done), as a server runs it, instead of
   * memory. For tests that write a roll of a county's size: in memory, the engine's files grow by a
   * whole copy each time a table is extended (Emscripten's in-memory file system implements
   * `posix_fallocate` as a resize to the exact size), so loading 100,000 rows copied gigabytes and took
   * minutes on a machine where fresh memory is slow to map; on disk it is the server's import.
   */
  onDisk?: boolean;
}

/**
 * Makes the new data folder `dir` a copy of the run's migrated embedded database (test/global-setup.ts),
 * where the run made one: opening it then skips initdb and the migrations, as a server's second start
 * does. Without one (a file run outside that setup) the folder is left for the first open to create.
 */
export async function startFromMigrated(dir: string): Promise<void> {
  const migrated = inject('migratedPglite');
  if (!migrated) return;
  const from = new Blob([fs.readFileSync(migrated)]);
  await (await openDatabase({ engine: 'pglite', dataDir: dir, worker: false, from })).close();
}

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl && options.onDisk) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-test-db-'));
    try {
      await startFromMigrated(dir);
      const database = await openDatabase({ engine: 'pglite', dataDir: dir });
      await migrate(database);
      return {
        database,
        url: null,
        async drop() {
          await database.close();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }
  if (!adminUrl) {
    // The API tests run the engine on the test's own thread: a query through the worker costs about
    // half a millisecond more, across thousands of queries. The worker itself (the production default)
    // is tested by db/pglite-client.test.ts and carries every e2e, load and benchmark run, which start
    // real servers; PGLITE_WORKER=1 runs these tests through it too.
    const worker = process.env.PGLITE_WORKER === '1';
    // A copy of the run's migrated database (test/global-setup.ts), when the file runs in that setup.
    const migrated = worker ? null : inject('migratedPglite');
    const database = await openDatabase({
      engine: 'pglite',
      dataDir: null,
      worker,
      ...(migrated ? { from: new Blob([fs.readFileSync(migrated)]) } : {}),
    });
    await migrate(database);
    return { database, url: null, drop: () => database.close() };
  }
  const name = `opp_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  // A throwaway database need not outlive a crash of the server: commits skip the wait for the WAL's
  // fsync (0.54 ms against 0.11 ms a commit on the CI machine of 2026-11-25).
  await admin.query(`alter database ${name} set synchronous_commit = off`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ engine: 'postgres', url: url.toString(), poolSize: 5 });
  await migrate(database);
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  db: Db;
  config: Config;
}

/**
 * Registers beforeAll/afterAll that build the app over a fresh database, and returns a context whose
 * fields are filled once beforeAll has run.
 */
export function setupTestApp(
  overrides: Partial<Config> = {},
  options: TestDatabaseOptions = {},
): TestContext {
  const ctx = {} as TestContext;
  let testDb: TestDatabase | null = null;
  beforeAll(async () => {
    testDb = await createTestDatabase(options);
    ctx.database = testDb.database;
    ctx.db = testDb.database.db;
    ctx.config = testConfig(overrides);
    ctx.app = await buildApp({ config: ctx.config, database: testDb.database });
    await ctx.app.ready();
  }, 60_000);
  afterAll(async () => {
    await ctx.app?.close();
    await testDb?.drop();
  });
  return ctx;
}

/**
 * The two ways a search is answered, each by an app over the test's database: the roll index
 * (`ctx.app`) and SQL (a second app with the index off, made after `ctx`'s and closed after the file).
 * A test of a search runs it on both: `for (const [path, app] of searchPaths())`.
 */
export function setupSearchPaths(
  ctx: TestContext,
  overrides: Partial<Config> = {},
): () => Array<[string, FastifyInstance]> {
  let sqlApp: FastifyInstance | undefined;
  beforeAll(async () => {
    sqlApp = await buildApp({
      config: testConfig({
        ...overrides,
        searchIndex: { enabled: false, warm: false, memoryMb: 64, awaitParcels: 0 },
      }),
      database: ctx.database,
    });
    await sqlApp.ready();
  }, 60_000);
  afterAll(async () => {
    await sqlApp?.close();
  });
  return () => [
    ['roll index', ctx.app],
    ['SQL', sqlApp!],
  ];
}
