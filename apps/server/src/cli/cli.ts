import { ConfigError, loadConfig } from '../config.ts';
import { describeDatabase, openConfiguredDatabase, startServer } from '../server.ts';
import { migrate } from '../db/migrate.ts';

const USAGE = `Usage: portal <command> [options]

Commands:
  serve                         Start the portal (API and web app on one port)
  migrate                       Apply database migrations and exit

Configuration comes from the environment; see .env.example.`;

/** Returns the process exit code. Errors go to stderr as one readable line, never a stack trace. */
export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve();
      case 'migrate':
        return await runMigrate();
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? 1 : 0;
      default:
        process.stderr.write(`portal: unknown command "${command}"\n\n${USAGE}\n`);
        void rest;
        return 2;
    }
  } catch (err) {
    process.stderr.write(`portal: ${err instanceof ConfigError ? err.message : (err as Error).message}\n`);
    return 1;
  }
}

async function serve(): Promise<number> {
  const config = loadConfig();
  const server = await startServer(config);
  process.stdout.write(`Open Property Portal is running at ${server.url} (${describeDatabase(config)})\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stdout.write(`\n${signal} received: finishing requests in flight, then stopping.\n`);
      server.close().then(resolve, resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}

async function runMigrate(): Promise<number> {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    const { applied } = await migrate(database);
    process.stdout.write(applied.length ? `Applied ${applied.join(', ')}\n` : 'Database is up to date\n');
    return 0;
  } finally {
    await database.close();
  }
}
