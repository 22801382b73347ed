import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepTempFolders } from '../../src/lib/temp-folder.ts';

/*
 * Issue 46, second outside attack (low): a server that died mid-upload (the zip bomb ran it out of
 * memory) left its temporary copy of the file behind for good. A server process keeps its temporary
 * files in a folder of its own (lib/temp-folder.ts, taken by startServer), and the next one to start
 * removes what dead ones left. Real processes, killed with SIGKILL as the out-of-memory killer does.
 */

const TEMP_FOLDER = path.resolve(import.meta.dirname, '../../src/lib/temp-folder.ts');
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-temp-sweep-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/**
 * A process that takes its temporary folder as a server does, receives part of an upload into it (as
 * the roll and parcel uploads do, under os.tmpdir()) and waits; answers the partial file's path.
 */
function uploadingServer() {
  const script = `
    import fs from 'node:fs/promises';
    import os from 'node:os';
    import path from 'node:path';
    const { claimTempFolder } = await import(${JSON.stringify(TEMP_FOLDER)});
    await claimTempFolder();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opp-roll-'));
    await fs.writeFile(path.join(dir, '0.jsonl'), '{"Account":"1"}\\n'.repeat(1000));
    console.log(path.join(dir, '0.jsonl'));
    setInterval(() => {}, 1000);
  `;
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, TMPDIR: base },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stderr.on('data', (d) => (out += d));
  const file = new Promise<string>((resolve, reject) => {
    proc.stdout.on('data', (d) => resolve(String(d).trim()));
    proc.once('exit', () => reject(new Error(`the process ended before uploading:\n${out}`)));
  });
  const killed = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return { proc, file, kill: () => (proc.kill('SIGKILL'), killed) };
}

describe('temporary copies of uploads (issue 46)', () => {
  it('are removed at the next start when the server receiving them was killed, and only then', async () => {
    const dead = uploadingServer();
    const live = uploadingServer();
    const [deadFile, liveFile] = await Promise.all([dead.file, live.file]);
    expect(deadFile.startsWith(base)).toBe(true);
    await dead.kill();
    // The dead server's copy is still there: nothing could remove it when the process died.
    expect(fs.existsSync(deadFile)).toBe(true);

    // The next server to start sweeps it; the live server's upload is untouched.
    const next = uploadingServer();
    await next.file;
    expect(fs.existsSync(deadFile)).toBe(false);
    expect(fs.existsSync(liveFile)).toBe(true);
    await Promise.all([live.kill(), next.kill()]);

    // Every server of this host is now gone: nothing of theirs is left after a sweep, and nothing else
    // in the folder is touched.
    fs.writeFileSync(path.join(base, 'someone-else.txt'), 'x');
    const removed = await sweepTempFolders(base);
    expect(removed).toHaveLength(2);
    const left = fs.readdirSync(base);
    expect(left.filter((name) => name.startsWith('opp-server-'))).toEqual([]);
    expect(left).toContain('someone-else.txt');
  });
});
