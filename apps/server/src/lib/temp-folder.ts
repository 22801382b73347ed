import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/*
 * Uploads are received into temporary folders (a roll's files, a parcel map), each removed on every way
 * its request or import ends. A process that dies mid-upload (killed, out of memory) removes nothing,
 * and its copy of someone's file would stay for good. So a server keeps its temporary files in a folder
 * of its own, named by host and process id, made the process's TMPDIR (which `os.tmpdir()` reads, so
 * every temporary file of the process lands there); at start it removes the folders that processes of
 * this host no longer running left behind. Folders of live processes, and of other hosts sharing the
 * same temporary folder, are left alone.
 */

const PREFIX = 'opp-server-';
const OWN = /^opp-server-([a-z0-9]*)\.(\d+)-/;

/** The host part of the folder's name: letters and digits only, so the name parses back. */
const hostTag = () =>
  os
    .hostname()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the folders under `base` that servers of this host no longer running left; answers their paths. */
export async function sweepTempFolders(base: string): Promise<string[]> {
  const host = hostTag();
  const removed: string[] = [];
  for (const name of await fs.readdir(base).catch(() => [] as string[])) {
    const m = OWN.exec(name);
    if (!m || m[1] !== host || running(Number(m[2]))) continue;
    const dir = path.join(base, name);
    await fs.rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

let own: Promise<string> | null = null;

/**
 * Sweeps what dead servers left in the system's temporary folder, then makes this process's own folder
 * there its TMPDIR. Once per process (a second call answers the same folder).
 */
export function claimTempFolder(): Promise<string> {
  own ??= (async () => {
    const base = os.tmpdir();
    await sweepTempFolders(base);
    const dir = await fs.mkdtemp(path.join(base, `${PREFIX}${hostTag()}.${process.pid}-`));
    process.env.TMPDIR = dir;
    return dir;
  })();
  return own;
}
