import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { CliError, parse, UsageError, write, type CliIo } from '../../cli/io.ts';
import { writeFileAtomic } from '../../lib/write-file-atomic.ts';
import { auditService } from '../audit/audit.service.ts';
import {
  inspectSnapshot,
  LOCAL_TOKEN_HEADER,
  readLocalAdmin,
  restoreSnapshot,
  snapshotOf,
} from './backup.service.ts';

export const BACKUP_USAGE = `Usage: portal backup FILE

Writes a consistent snapshot of the embedded database (DATA_DIR) to FILE, a .tar.gz. Works while the
portal runs (the running server takes the snapshot between two transactions) and while it is stopped.
With DATABASE_URL set, back up the PostgreSQL server with pg_dump instead (docs/operations.md).`;

export const RESTORE_USAGE = `Usage: portal restore FILE

Replaces the embedded database in DATA_DIR with the snapshot in FILE (made by portal backup), then
applies any newer migrations. Stop the portal first. The database it replaces is kept in DATA_DIR as
pglite.before-restore-<time>; delete it once the restored portal looks right.
With DATABASE_URL set, restore the PostgreSQL server with pg_restore instead (docs/operations.md).`;

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

function fileArgument(args: string[], usage: string, io: CliIo): string | null {
  const { values, positionals } = parse(args, {}, true);
  if (values.help) {
    write(io.stdout, usage);
    return null;
  }
  if (positionals.length !== 1) throw new UsageError('name one FILE');
  return path.resolve(positionals[0]!);
}

export async function backupCommand(args: string[], io: CliIo): Promise<number> {
  const file = fileArgument(args, BACKUP_USAGE, io);
  if (!file) return 0;
  const config = loadConfig(io.env);
  if (config.databaseUrl)
    throw new CliError(
      'the portal uses a PostgreSQL server: back it up with pg_dump (see docs/operations.md)',
    );

  const started = Date.now();
  let bytes: Uint8Array;
  let source: string;
  const running = readLocalAdmin(config.dataDir);
  if (running) {
    let res: Response;
    try {
      res = await fetch(`${running.url}/api/internal/backup`, {
        method: 'POST',
        headers: { [LOCAL_TOKEN_HEADER]: running.token },
      });
    } catch (err) {
      throw new CliError(
        `cannot reach the running portal (pid ${running.pid}) at ${running.url}: ${(err as Error).message}`,
      );
    }
    if (!res.ok)
      throw new CliError(`the running portal (pid ${running.pid}) refused the backup (HTTP ${res.status})`);
    bytes = new Uint8Array(await res.arrayBuffer());
    source = `taken by the running portal, pid ${running.pid}`;
  } else {
    if (!fs.existsSync(path.join(config.dataDir, 'pglite')))
      throw new CliError(`there is no database in ${config.dataDir} (check DATA_DIR)`);
    const database = await openDatabase({ engine: 'pglite', dataDir: config.dataDir });
    try {
      bytes = await snapshotOf(database);
    } finally {
      await database.close();
    }
    source = 'the portal was not running';
  }
  writeFileAtomic(file, bytes);
  write(
    io.stdout,
    `Backup of ${config.dataDir} written to ${file} (${mb(bytes.length)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s; ${source})`,
  );
  return 0;
}

export async function restoreCommand(args: string[], io: CliIo): Promise<number> {
  const file = fileArgument(args, RESTORE_USAGE, io);
  if (!file) return 0;
  const config = loadConfig(io.env);
  if (config.databaseUrl)
    throw new CliError(
      'the portal uses a PostgreSQL server: restore it with pg_restore (see docs/operations.md)',
    );
  if (!fs.existsSync(file)) throw new CliError(`${file} does not exist`);
  const running = readLocalAdmin(config.dataDir);
  if (running)
    throw new CliError(
      `the portal is running on ${config.dataDir} (pid ${running.pid}): stop it, then restore`,
    );

  const bytes = new Uint8Array(fs.readFileSync(file));
  let info: { migrations: number; clients: number };
  try {
    info = await inspectSnapshot(bytes);
  } catch (err) {
    throw new CliError(`${file} is not a portal backup (${(err as Error).message})`);
  }
  const previous = await restoreSnapshot(config.dataDir, bytes);

  const database = await openDatabase({ engine: 'pglite', dataDir: config.dataDir });
  try {
    const { applied } = await migrate(database);
    await auditService.record(database.db, {
      actor: { id: null, username: `cli:${os.userInfo().username}` },
      ip: null,
      action: 'database.restore',
      entity: 'database',
      after: { File: path.basename(file), Clients: info.clients, MigrationsApplied: applied },
    });
  } finally {
    await database.close();
  }
  write(io.stdout, `Restored ${file} into ${config.dataDir} (${info.clients} clients).`);
  if (previous)
    write(io.stdout, `The database it replaced is kept in ${previous}; delete it when satisfied.`);
  return 0;
}
