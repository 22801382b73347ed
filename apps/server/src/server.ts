import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase, redactUrl, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { claimTempFolder } from './lib/temp-folder.ts';

/**
 * The configured database. The server runs the embedded engine in a worker thread so a query never
 * blocks other requests (decision 0007); a one-shot command (`worker: false`) has no other requests to
 * serve and skips the thread's start-up cost.
 */
export async function openConfiguredDatabase(
  config: Config,
  options: { worker?: boolean } = {},
): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ engine: 'postgres', url: config.databaseUrl })
    : openDatabase({ engine: 'pglite', dataDir: config.dataDir, worker: options.worker ?? true });
}

export function describeDatabase(config: Config): string {
  return config.databaseUrl
    ? `PostgreSQL at ${redactUrl(config.databaseUrl)}`
    : `embedded database in ${config.dataDir}`;
}

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  url: string;
  close(): Promise<void>;
}

/**
 * Takes a temporary folder of its own (lib/temp-folder.ts), opens the database, migrates, builds and
 * listens. On SIGTERM/SIGINT it stops accepting connections,
 * lets in-flight requests finish, then closes the database.
 */
export async function startServer(
  config: Config,
  hooks: { beforeListen?: (db: Database) => Promise<void> } = {},
): Promise<RunningServer> {
  // Before anything is received: what a server that died mid-upload left goes first.
  await claimTempFolder();
  const database = await openConfiguredDatabase(config);
  try {
    await migrate(database);
    await hooks.beforeListen?.(database);
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
  const app = await buildApp({ config, database });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      // A keep-alive connection whose last response ends after close() began would otherwise keep the
      // process alive until its idle timeout (72 s); close each one as soon as it falls idle.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
      }
      await database.close();
    })());
  return { app, database, url: `http://${host}:${port}`, close };
}
