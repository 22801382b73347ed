import fs from 'node:fs';
import { ConfigError, loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { AppError } from '../errors.ts';
import { DemoConflictError, type DemoSummary } from '../features/demo/demo.service.ts';
import { UnsupportedRollFileError } from '../features/rolls/record-sources.ts';
import { describeDatabase, openConfiguredDatabase, startServer } from '../server.ts';
import { clientCommand, CLIENT_ADD_USAGE, flagOf, userCommand, USER_ADD_USAGE } from './admin-commands.ts';
import { DEMO_USAGE, demoCommand, demoLoginsFile, prepareOnStart, printLogins } from './demo-command.ts';
import { importCommand, IMPORT_USAGE } from './import-command.ts';
import { parcelsCommand, PARCELS_USAGE } from './parcels-command.ts';
import {
  BACKUP_USAGE,
  backupCommand,
  RESTORE_USAGE,
  restoreCommand,
} from '../features/backup/backup.command.ts';
import { CliError, parse, processIo, UsageError, write, type CliIo } from './io.ts';

const USAGE = `Usage: portal <command> [options]      (from the repository: npm run portal -- <command>)

Commands:
  serve                                  start the portal (API and web app on one port)
  migrate                                apply database migrations and exit
  import --state S --city C FILE         publish a town's roll from a .jsonl or .csv file
  import … --format NAME|--mapping M FILE…  … or from the town's own export (--dry-run, --preview N)
  user add --username U --email E --role 1|2|3|4 [--manages ID] --password-stdin
                                         create an admin account
  user reset-two-factor --username U     turn off two-factor sign-in for an admin who lost it
  client add --state S --city C          create a client (municipality)
  demo [--parcels N]                     create the demo towns and logins
  backup FILE                            snapshot the embedded database to FILE (also while serving)
  restore FILE                           replace the embedded database with a backup (portal stopped)
  parcels import --state S --city C FILE replace a town's parcel map (GeoJSON, TopoJSON, zipped Shapefile)

"portal <command> --help" explains a command. Configuration comes from the environment
(PORT, DATA_DIR, DATABASE_URL, …); see .env.example.`;

const SERVE_USAGE = `Usage: portal serve

Starts the portal: the API under /api and the web app on every other path, on PORT (default 8086).
On the first start with an empty embedded database it creates the demo towns (PORTAL_DEMO=0 skips that).`;

const MIGRATE_USAGE = `Usage: portal migrate

Applies the database migrations that have not been applied yet, then exits. (serve does this too.)`;

const USAGES: Record<string, string> = {
  serve: SERVE_USAGE,
  migrate: MIGRATE_USAGE,
  import: IMPORT_USAGE,
  user: USER_ADD_USAGE,
  client: CLIENT_ADD_USAGE,
  demo: DEMO_USAGE,
  backup: BACKUP_USAGE,
  restore: RESTORE_USAGE,
  parcels: PARCELS_USAGE,
};

/**
 * Runs one command and returns the process exit code: 0 done, 1 it failed (the reason on stderr, one
 * readable line, never a stack trace), 2 it was called wrongly (the reason and the usage on stderr).
 */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(rest, io);
      case 'migrate':
        return await runMigrate(rest, io);
      case 'import':
        return await importCommand(rest, io);
      case 'user':
        return await userCommand(rest, io);
      case 'client':
        return await clientCommand(rest, io);
      case 'demo':
        return await demoCommand(rest, io);
      case 'backup':
        return await backupCommand(rest, io);
      case 'restore':
        return await restoreCommand(rest, io);
      case 'parcels':
        return await parcelsCommand(rest, io);
      case undefined:
        write(io.stderr, USAGE);
        return 2;
      case 'help':
      case '--help':
      case '-h':
        write(io.stdout, (rest[0] && USAGES[rest[0]]) || USAGE);
        return 0;
      default:
        write(io.stderr, `portal: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    const sub = (command === 'user' || command === 'client') && rest[0] === 'add' ? ' add' : '';
    const prefix = `portal${command ? ` ${command}${sub}` : ''}`;
    if (err instanceof UsageError) {
      write(io.stderr, `${prefix}: ${err.message}\n\n${USAGES[command!] ?? USAGE}`);
      return 2;
    }
    write(io.stderr, `${prefix}: ${describeError(err)}`);
    if (err instanceof CliError) for (const d of err.details) write(io.stderr, `${prefix}: ${d}`);
    return 1;
  }
}

/** A failure as one line a person can act on. Anything unexpected keeps its message, not its stack. */
function describeError(err: unknown): string {
  if (err instanceof AppError) {
    const [field] = err.fields ?? [];
    return field ? `${flagOf(field.field)}: ${field.message}` : err.message;
  }
  if (
    err instanceof CliError ||
    err instanceof ConfigError ||
    err instanceof DataDirInUseError ||
    err instanceof DemoConflictError ||
    err instanceof UnsupportedRollFileError
  )
    return err.message;
  return `unexpected error: ${(err as Error)?.message ?? String(err)}`;
}

async function serve(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, {});
  if (values.help) {
    write(io.stdout, SERVE_USAGE);
    return 0;
  }
  const config = loadConfig(io.env);
  let demo: DemoSummary | null = null;
  const server = await startServer(config, {
    beforeListen: async (database) => {
      demo = await prepareOnStart(database, config, io);
    },
  });
  // Stops once, however many times the signal comes (a second Ctrl+C, or a process manager's repeat,
  // can come late, even after the close). A repeat must not fall through to Node's default action, which
  // ends the process (by the signal, not with status 0), so the listeners stay until the process exits
  // (they do not keep it alive). Listening before the announcement: whoever waits for it may signal at once.
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      write(io.stdout, `\n${signal} received: finishing requests in flight, then stopping.`);
      server.close().then(resolve, resolve);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  write(io.stdout, `Open Property Portal is running at ${server.url} (${describeDatabase(config)})`);
  const made = demo as DemoSummary | null;
  if (made) printLogins(io, made.logins, config.databaseUrl ? null : demoLoginsFile(config));
  else if (!config.databaseUrl && fs.existsSync(demoLoginsFile(config)))
    write(io.stdout, `Demo logins: see ${demoLoginsFile(config)}`);
  // Once its large towns' search indexes are built (or two minutes have passed): /readyz says 200.
  await Promise.race([
    server.app.readiness
      .whenReady()
      .then(() => write(io.stdout, 'Open Property Portal is ready (its large towns are indexed for search)')),
    stopped,
  ]);
  await stopped;
  return 0;
}

async function runMigrate(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, {});
  if (values.help) {
    write(io.stdout, MIGRATE_USAGE);
    return 0;
  }
  const config = loadConfig(io.env);
  const database = await openConfiguredDatabase(config, { worker: false });
  try {
    const { applied } = await migrate(database);
    write(io.stdout, applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date');
    return 0;
  } finally {
    await database.close();
  }
}
