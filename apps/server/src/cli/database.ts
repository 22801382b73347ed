import type { Config } from '../config.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openConfiguredDatabase } from '../server.ts';
import type { CliIo } from './io.ts';

/**
 * Opens the configured database (migrated, so a command works on a fresh data folder too), runs `work`,
 * and closes it again, releasing the embedded database's folder lock for the next process.
 */
export async function withDatabase<T>(
  io: CliIo,
  work: (database: Database, config: Config) => Promise<T>,
): Promise<T> {
  const config = loadConfig(io.env);
  const database = await openConfiguredDatabase(config, { worker: false });
  try {
    await migrate(database);
    return await work(database, config);
  } finally {
    await database.close();
  }
}
