import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/database.ts';
import { buildClient } from '../../../test/factories.ts';
import {
  engine,
  freshStore,
  runPortal,
  spawnPortal,
  writeRollFile,
  type Store,
} from '../../../test/load/support.ts';
import { importLockHeld, tryImportLock } from './import-lock.ts';
import { INTERRUPTED_MESSAGE } from './roll-publishing.service.ts';

/*
 * Issue 37, "A crashed import never blocks the next one": after SIGKILL of `portal import` on
 * PostgreSQL, re-running it answered "a roll … is being published right now; try again when it is done"
 * for two minutes (until the dead run's heartbeat went stale). Here a real `portal import` is killed
 * with SIGKILL midway and the same command is run again at once: it must go ahead, and say what
 * happened to the one before.
 */

const RECORDS = 20_000;
let store: Store | null = null;
let dir: string | null = null;
afterAll(async () => {
  await store?.drop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`a crashed import never blocks the next one (${engine})`, () => {
  it('re-running `portal import` right after the previous one was killed with SIGKILL publishes the roll', async () => {
    store = await freshStore();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-import-lock-'));
    const file = path.join(dir, 'lockton.jsonl');
    await writeRollFile(file, RECORDS, 'B');
    let database = await store.open();
    const client = await buildClient(database.db, { city: 'Lockton', stateProvince: 'Maine' });
    const runs = () =>
      queryRows<{ id: number; status: string; message: string | null }>(
        database.db,
        sql`select id, status, message from import_runs where client_id = ${client.id} order by id`,
      );
    // The embedded engine's folder is one process's: the child opens it.
    if (engine === 'pglite') await database.close();

    const args = ['import', '--state', 'Maine', '--city', 'Lockton', file];
    const child = spawnPortal(args, store.env);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise((r) => child.once('exit', r));
    if (engine === 'postgres') {
      // Midway: its run exists and is writing.
      for (let i = 0; i < 1200; i++) {
        const running = (await runs()).filter((r) => r.status === 'validating' || r.status === 'importing');
        if (running.length > 0) break;
        if (child.exitCode !== null) throw new Error(`the import ended before it could be killed:\n${out}`);
        await sleep(50);
      }
      // While it lives it holds the town's import lock, so another import waits its turn (asked here
      // rather than by starting a second process, which could take longer than the import itself).
      expect(await importLockHeld(database.db, client.id)).toBe(true);
      expect(await tryImportLock(database.db, client.id)).toBeNull();
    } else {
      // The folder is locked by the child; its import starts once the database is open.
      const lockFile = path.join(store.env.DATA_DIR!, 'portal.lock');
      while (!fs.existsSync(lockFile) && child.exitCode === null) await sleep(50);
      await sleep(2000);
    }
    expect(child.exitCode, out).toBeNull();
    child.kill('SIGKILL');
    await exited;

    // At once, the same command again.
    const rerun = await runPortal(args, store.env);
    expect(rerun.code, rerun.out).toBe(0);
    expect(rerun.out).not.toMatch(/being published right now/);
    expect(rerun.out).toMatch(/Imported 20,000 records into Lockton, Maine/);

    if (engine === 'pglite') database = await store.open();
    const after = await runs();
    const last = after.at(-1)!;
    expect(last.status).toBe('succeeded');
    if (engine === 'postgres' || after.length > 1) {
      // The killed run is marked, in words, and the command said so.
      expect(after).toHaveLength(2);
      expect(after[0]).toMatchObject({ status: 'failed', message: INTERRUPTED_MESSAGE });
      expect(rerun.out).toMatch(/was interrupted: the process running it stopped before it finished/);
    }
    await database.close();
  }, 300_000);
});
