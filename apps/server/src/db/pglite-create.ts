import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

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
 * Opens the embedded database in `dataPath` (null: in memory, empty or a copy of the snapshot `from`),
 * creating it if the folder is new. A new
 * database is closed and opened again before use: creating it runs initdb, and the instance that ran it
 * keeps about 450 MB of the process's memory for as long as it lives.
 */
export async function createPglite(dataPath: string | null, from?: Blob): Promise<PGlite> {
  if (dataPath === null) return PGlite.create(from ? { ...OPTIONS, loadDataDir: from } : OPTIONS);
  const isNew = !fs.existsSync(path.join(dataPath, 'PG_VERSION'));
  const db = await PGlite.create(dataPath, OPTIONS);
  if (!isNew) return db;
  await db.close();
  return PGlite.create(dataPath, OPTIONS);
}

/** What `COPY … TO '/dev/blob'` wrote, as bytes (none when it wrote no rows). */
export async function copiedOut(result: { blob?: Blob }): Promise<Uint8Array> {
  return result.blob ? new Uint8Array(await result.blob.arrayBuffer()) : new Uint8Array(0);
}
