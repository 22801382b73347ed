import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig, type Config } from '../../apps/server/src/config.ts';
import type { Database, Db } from '../../apps/server/src/db/database.ts';
import { createTestDatabase } from '../../apps/server/test/helpers.ts';
import { ensureWebBuild } from './web-build.ts';

/*
 * A real portal for browser tests: the production app (API + built web app on one port) over a fresh,
 * migrated database that exists only for this test file. In-memory PGlite by default; a throwaway
 * database on the PostgreSQL server when TEST_DATABASE_URL is set (as scripts/with-pg-database.mjs does).
 */

export interface Portal {
  /** Base URL such as http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  db: Db;
  database: Database;
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface StartPortalOptions {
  /** Writes the test's data before the server accepts requests (see ./seed.ts for helpers). */
  seed?: (db: Db, database: Database) => Promise<void>;
  /** Config overrides (for example a provider name or session lengths). */
  config?: Partial<Config>;
}

export async function startPortal(options: StartPortalOptions = {}): Promise<Portal> {
  const webDist = ensureWebBuild();
  const testDb = await createTestDatabase();
  let app: FastifyInstance | null = null;
  try {
    await options.seed?.(testDb.database.db, testDb.database);
    const config = testConfig({
      host: '127.0.0.1',
      port: 0,
      webDist,
      // One browser makes many requests per minute; the production limits would throttle the tests.
      publicRateLimitPerMinute: 100_000,
      exportRateLimitPerMinute: 1_000,
      ...options.config,
    });
    app = await buildApp({ config, database: testDb.database });
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await app?.close().catch(() => {});
    await testDb.drop().catch(() => {});
    throw err;
  }
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('portal did not bind a TCP port');
  const running = app;
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${address.port}`,
    db: testDb.database.db,
    database: testDb.database,
    app: running,
    close: () =>
      (closing ??= (async () => {
        await running.close();
        await testDb.drop();
      })()),
  };
}
