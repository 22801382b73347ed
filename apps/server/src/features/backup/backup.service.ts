import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Database } from '../../db/database.ts';
import { acquireDataDirLock } from '../../db/data-dir-lock.ts';
import { writeFileAtomic } from '../../lib/write-file-atomic.ts';

/*
 * Backup and restore of the embedded database (PGlite). PGlite is one process per data folder, so
 * `portal backup` cannot open the folder while the server runs. Instead the running server takes the
 * snapshot itself: at start it writes a random token to a file in the data folder (readable only by the
 * account that runs the portal), and answers POST /api/internal/backup only to a local caller that
 * presents it. Whoever can read that file can read the database files anyway, so the token grants
 * nothing new. With no server running, the command opens the folder directly.
 *
 * A snapshot is PGlite's dump of its data folder (a gzipped tarball), taken while the database holds
 * its transaction lock: between transactions, never in the middle of one.
 */

export const LOCAL_ADMIN_FILE = 'portal.local-admin.json';
export const LOCAL_TOKEN_HEADER = 'x-portal-local-token';

export interface LocalAdmin {
  pid: number;
  url: string;
  token: string;
}

export const newLocalToken = () => randomBytes(32).toString('base64url');

export function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const localAdminPath = (dataDir: string) => path.join(dataDir, LOCAL_ADMIN_FILE);

export function writeLocalAdmin(dataDir: string, admin: LocalAdmin): void {
  writeFileAtomic(localAdminPath(dataDir), JSON.stringify(admin));
}

export function removeLocalAdmin(dataDir: string, pid = process.pid): void {
  const file = localAdminPath(dataDir);
  try {
    const current = JSON.parse(fs.readFileSync(file, 'utf8')) as LocalAdmin;
    if (current.pid === pid) fs.unlinkSync(file);
  } catch {
    /* gone already */
  }
}

/** The running server's local admin endpoint for this data folder, or null when none is running. */
export function readLocalAdmin(dataDir: string): LocalAdmin | null {
  try {
    const admin = JSON.parse(fs.readFileSync(localAdminPath(dataDir), 'utf8')) as LocalAdmin;
    process.kill(admin.pid, 0);
    return admin;
  } catch {
    return null;
  }
}

/** A snapshot of an open embedded database. @throws when the database is not embedded. */
export async function snapshotOf(database: Database): Promise<Uint8Array> {
  if (!database.snapshot) throw new Error('only the embedded database can be snapshotted; use pg_dump');
  return new Uint8Array(await (await database.snapshot()).arrayBuffer());
}

/** Checks that a snapshot opens and is a portal database; answers what it holds. */
export async function inspectSnapshot(bytes: Uint8Array): Promise<{ migrations: number; clients: number }> {
  const pg = await PGlite.create({ loadDataDir: new Blob([bytes]) });
  try {
    const m = await pg.query<{ n: number }>('select count(*)::int as n from schema_migrations');
    const c = await pg.query<{ n: number }>('select count(*)::int as n from clients');
    return { migrations: m.rows[0]!.n, clients: c.rows[0]!.n };
  } finally {
    await pg.close();
  }
}

/**
 * Replaces the data folder's database with a snapshot. The server must be stopped (the folder lock is
 * taken here). The database it replaces is kept beside it, renamed, until someone deletes it.
 * @returns where the previous database was moved, or null when there was none.
 */
export async function restoreSnapshot(dataDir: string, bytes: Uint8Array): Promise<string | null> {
  fs.mkdirSync(dataDir, { recursive: true });
  const lock = acquireDataDirLock(dataDir);
  try {
    const target = path.join(dataDir, 'pglite');
    let previous: string | null = null;
    if (fs.existsSync(target)) {
      previous = path.join(
        dataDir,
        `pglite.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`,
      );
      fs.renameSync(target, previous);
    }
    try {
      const pg = await PGlite.create(target, { loadDataDir: new Blob([bytes]) });
      await pg.query('select 1 from schema_migrations limit 1');
      await pg.exec('checkpoint');
      await pg.close();
    } catch (err) {
      // Put the old database back: a failed restore leaves things as they were.
      fs.rmSync(target, { recursive: true, force: true });
      if (previous) fs.renameSync(previous, target);
      throw err;
    }
    return previous;
  } finally {
    lock.release();
  }
}
