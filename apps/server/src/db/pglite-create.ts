import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { copyPieces, type CopyInput } from './copy-text.ts';

/*
 * PGlite's shared buffers live in its WebAssembly memory, which only ever grows: at the default 128 MB
 * a server that has read its rolls holds all of it. At 32 MB the pages beyond it come from the
 * operating system's file cache instead (which the OS can reclaim): measured on the 1M-parcel roll, the
 * process's memory after reading it fell by 167 MB while the read took 8 % longer.
 */
const OPTIONS: PGliteOptions = {
  startParams: [
    ...PGlite.defaultStartParams,
    '-c',
    'shared_buffers=32MB',
    // A new WAL file is not written full of zeros first: that reserves its disk space ahead, which only
    // matters where writes are flushed, and PGlite never flushes (fsync is off). A 100,000-record import
    // writes about 270 MB of WAL; skipping the zeros took it from 7.5 to 7.2 s.
    '-c',
    'wal_init_zero=off',
  ],
};

/**
 * Opens the embedded database in `dataPath` (null: in memory), creating it if the folder is new: empty,
 * or a copy of the snapshot `from`. A new database is closed and opened again before use: creating it
 * runs initdb, and the instance that ran it keeps about 450 MB of the process's memory for as long as it
 * lives.
 */
export async function createPglite(dataPath: string | null, from?: Blob): Promise<PGlite> {
  const options = from ? { ...OPTIONS, loadDataDir: from } : OPTIONS;
  if (dataPath === null) return PGlite.create(options);
  const isNew = !fs.existsSync(path.join(dataPath, 'PG_VERSION'));
  const db = await PGlite.create(dataPath, isNew ? options : OPTIONS);
  if (!isNew) return db;
  await db.close();
  return PGlite.create(dataPath, OPTIONS);
}

/**
 * Makes the embedded database's data folder private to the portal's own user: the folder and every
 * folder in it 0700, every file 0600 (PGlite's file system writes its files world-writable, `pg_control`
 * and the WAL included). Run at every start, so a folder created by an older version is fixed too; files
 * the engine creates later sit inside 0700 folders, where no other user can reach them. Symbolic links
 * are left alone (never followed).
 */
export function restrictDataFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const folders = [dir];
  while (folders.length) {
    const folder = folders.pop()!;
    fs.chmodSync(folder, 0o700);
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) folders.push(full);
      else if (entry.isFile()) fs.chmodSync(full, 0o600);
    }
  }
}

/** Runs `sql`, a `COPY … FROM '/dev/blob'`, with `data` as the file it reads (PGlite's own way in). */
export async function copiedIn(pg: PGlite, sql: string, data: CopyInput): Promise<void> {
  await pg.query(sql, [], { blob: new Blob(copyPieces(data) as (string | Uint8Array<ArrayBuffer>)[]) });
}

/** What `COPY … TO '/dev/blob'` wrote, as bytes (none when it wrote no rows). */
export async function copiedOut(result: { blob?: Blob }): Promise<Uint8Array> {
  return result.blob ? new Uint8Array(await result.blob.arrayBuffer()) : new Uint8Array(0);
}
