import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig, TEST_ENV } from '../../apps/server/src/config.ts';
import type { Database, Db } from '../../apps/server/src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../../apps/server/test/helpers.ts';
import { ensureWebBuild, repoRoot } from './web-build.ts';

/*
 * A real portal for browser tests: the production app (API + built web app on one port) over a fresh,
 * migrated database that exists only for this test file. In-memory PGlite by default; a throwaway
 * database on the PostgreSQL server when TEST_DATABASE_URL is set (as scripts/with-pg-database.mjs does).
 *
 * E2E_BUILT=1 (CI): the built server instead (`npm run build`), started as `portal serve` in a process of
 * its own over the seeded database (a data folder on disk for PGlite), so the suite proves the build.
 */

export interface Portal {
  /** Base URL such as http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

export interface StartPortalOptions {
  /** Writes the test's data before the server accepts requests (see ./seed.ts for helpers). */
  seed?: (db: Db, database: Database) => Promise<void>;
  /** Settings as the server's environment (config.ts), e.g. { REQUIRE_TOTP_FOR_PROVIDER: '1' }. */
  env?: Record<string, string>;
}

const BUILT = process.env.E2E_BUILT === '1';

export async function startPortal(options: StartPortalOptions = {}): Promise<Portal> {
  const env: Record<string, string> = {
    ...TEST_ENV,
    HOST: '127.0.0.1',
    PORT: '0',
    WEB_DIST: ensureWebBuild(),
    // One browser makes many requests per minute; the production limits would throttle the tests.
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
    EXPORT_RATE_LIMIT_PER_MINUTE: '1000',
    ...options.env,
  };
  const testDb = await createTestDatabase({ onDisk: BUILT });
  try {
    await options.seed?.(testDb.database.db, testDb.database);
    return BUILT ? await startBuilt(testDb, env) : await startInProcess(testDb, env);
  } catch (err) {
    await testDb.drop().catch(() => {});
    throw err;
  }
}

async function startInProcess(testDb: TestDatabase, env: Record<string, string>): Promise<Portal> {
  const config = loadConfig(env);
  let app: FastifyInstance | null = null;
  try {
    app = await buildApp({ config, database: testDb.database });
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await app?.close().catch(() => {});
    throw err;
  }
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('portal did not bind a TCP port');
  const running = app;
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      (closing ??= (async () => {
        await running.close();
        await testDb.drop();
      })()),
  };
}

async function startBuilt(testDb: TestDatabase, env: Record<string, string>): Promise<Portal> {
  // The embedded database's folder is the server's now (one process per folder).
  const dataDir = testDb.database.dataDir;
  if (dataDir) await testDb.database.close();
  const proc = spawn(path.join(repoRoot, 'apps/server/bin/portal'), ['serve'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, DATABASE_URL: testDb.url ?? '', DATA_DIR: dataDir ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (d) => (output += d));
  proc.stderr.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const cleanUp = async () => {
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    else await testDb.drop();
  };
  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = /running at (http:\/\/\S+)/.exec(output);
        if (m) resolve(m[1]!);
      };
      proc.stdout.on('data', check);
      void exited.then(() => reject(new Error(`the built portal stopped before listening:\n${output}`)));
    });
  } catch (err) {
    await cleanUp();
    throw err;
  }
  let closing: Promise<void> | null = null;
  return {
    url,
    close: () =>
      (closing ??= (async () => {
        if (proc.exitCode === null) proc.kill('SIGTERM');
        await exited;
        await cleanUp();
      })()),
  };
}
