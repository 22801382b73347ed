import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirInUseError, isAlive } from './data-dir-lock.ts';

/*
 * Issue 37: the embedded engine's data-folder lock must not mistake a process that has exited (a
 * zombie its parent has not reaped) or is being torn down for a live one: the next `portal` would
 * refuse to start on a folder nobody uses.
 */

const dirs: string[] = [];
const children: number[] = [];
afterEach(() => {
  for (const pid of children.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function folderLockedBy(pid: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-lock-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'portal.lock'), String(pid));
  return dir;
}

/**
 * A zombie: a shell starts a short `sleep` in the background and replaces itself with a long one, which
 * never reaps it (the short one outlives the shell's own wait, so the shell cannot reap it either).
 * Resolves with the zombie's pid once /proc shows it exited.
 */
async function zombie(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(parent.pid!);
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))),
  );
  for (let i = 0; i < 1000; i++) {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return pid;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the background process did not exit');
}

describe('data folder lock', () => {
  it.runIf(fs.existsSync('/proc/self/stat'))(
    'takes over a lock left by an exited process its parent has not reaped (zombie)',
    async () => {
      const pid = await zombie();
      // Signal 0 still answers for it: the old check called it alive.
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(isAlive(pid)).toBe(false);
      const dir = folderLockedBy(pid);
      const lock = acquireDataDirLock(dir);
      expect(fs.readFileSync(path.join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));
      lock.release();
    },
  );

  it('takes over a lock left by a process killed with SIGKILL, and refuses one held by a live process', async () => {
    const victim = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(victim.pid!);
    const live = folderLockedBy(victim.pid!);
    expect(() => acquireDataDirLock(live)).toThrow(DataDirInUseError);
    expect(() => acquireDataDirLock(live)).toThrow(/in use by another portal process/);

    victim.kill('SIGKILL');
    await new Promise((r) => victim.once('exit', r));
    const lock = acquireDataDirLock(live);
    expect(fs.readFileSync(path.join(live, 'portal.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(path.join(live, 'portal.lock'))).toBe(false);
  });
});
