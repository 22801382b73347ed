import fs from 'node:fs';
import path from 'node:path';

export interface DataDirLock {
  release(): void;
}

export class DataDirInUseError extends Error {}

// One exit hook for every lock this process holds (a listener per lock would pile up in long test runs).
const held = new Set<() => void>();
let exitHooked = false;
function releaseOnExit(release: () => void) {
  held.add(release);
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => held.forEach((r) => r()));
}

/**
 * An exclusive lock file in the data folder. A lock left by a process that no longer exists (killed,
 * crashed) is taken over; one held by a live process refuses with a clear message.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = path.join(dataDir, 'portal.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        held.delete(release);
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      releaseOnExit(release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirInUseError(
          `The data folder ${dataDir} is in use by another portal process (pid ${pid}). ` +
            'Stop it first, or point DATA_DIR at another folder.',
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock the data folder ${dataDir}`);
}

/**
 * Whether `pid` is a process that can still use the folder. Signal 0 answers for an exited process its
 * parent has not reaped yet (a zombie) and for one being torn down, which hold no files any more: on
 * Linux their state in /proc says so (Z, X), and they count as gone.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const state = processState(pid);
  if (state === null) return false;
  return state === undefined || !/^[ZXx]$/.test(state);
}

/** The state letter of /proc/<pid>/stat; null when the process is gone, undefined without /proc. */
function processState(pid: number): string | null | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    return fs.existsSync('/proc/self/stat') ? null : undefined;
  }
  // "pid (command) S …": the command may hold spaces and parentheses; the state follows the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).charAt(0);
}
