import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { queryRows, type Database } from '../../src/db/database.ts';
import { importRoll } from '../../src/features/rolls/import.service.ts';
import { INTERRUPTED_MESSAGE } from '../../src/features/rolls/roll-publishing.service.ts';
import { buildClient } from '../factories.ts';
import {
  NODE_TS,
  ROOT,
  engine,
  freshStore,
  recordSource,
  runPortal,
  sharedRollFile,
  type Store,
} from './support.ts';

const PREVIOUS = 5_000;
const NEXT = 100_000;

let store: Store | null = null;
afterAll(async () => {
  await store?.drop();
});

async function publicView(database: Database, clientId: number) {
  const app = await buildApp({ config: testConfig({ publicRateLimitPerMinute: 1_000_000 }), database });
  try {
    const search = await app.inject({
      method: 'POST',
      url: `/api/propertysearch/${clientId}?query=smith`,
      payload: {},
    });
    const all = await app.inject({ method: 'POST', url: `/api/propertysearch/${clientId}`, payload: {} });
    const one = await app.inject({ url: `/api/fullproperty/1?city=Crashville&state=Maine` });
    return {
      status: [search.statusCode, all.statusCode, one.statusCode],
      total: all.json().TotalRecords as number,
      smiths: search.json().TotalRecords as number,
      owners: (search.json().SearchProperties as { Owners: { OwnerName: string }[] }[]).flatMap((p) =>
        p.Owners.map((o) => o.OwnerName),
      ),
      mapLot: one.json().MapLot as string,
    };
  } finally {
    await app.close();
  }
}

describe(`crash safety (${engine})`, () => {
  it('a 100,000-record import killed with SIGKILL midway leaves the previous roll intact and searchable; a re-run completes', async () => {
    store = await freshStore();
    let database = await store.open();
    const client = await buildClient(database.db, { city: 'Crashville', stateProvince: 'Maine' });
    const first = await importRoll(
      database.db,
      { clientId: client.id, userId: null, actor: 'crash test', fileName: 'previous.jsonl' },
      recordSource(PREVIOUS, 'A'),
    );
    expect(first.ok).toBe(true);
    await database.close();

    // The import, in its own process, killed once it has written a good part of the new roll.
    const started = Date.now();
    const child = spawn(
      NODE_TS[0],
      [
        ...NODE_TS.slice(1),
        path.join(import.meta.dirname, 'import-child.ts'),
        String(client.id),
        String(NEXT),
        'B',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, ...store.env, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stderr.on('data', (d) => (out += d));
    const killedAt = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d;
        const m = /progress importing (\d+)\n(?![\s\S]*progress importing)/.exec(out);
        if (m && Number(m[1]) >= NEXT * 0.3 && child.exitCode === null) {
          child.kill('SIGKILL');
          resolve(Number(m[1]));
        }
      });
      child.once('exit', (code, signal) => {
        if (signal !== 'SIGKILL')
          reject(new Error(`import ended (${code}) before it could be killed:\n${out.slice(-2000)}`));
      });
    });
    await new Promise((r) => child.once('exit', r));
    const killSeconds = (Date.now() - started) / 1000;

    database = await store.open();
    const [state] = await queryRows<{ active: number; rows: number; written: number; status: string }>(
      database.db,
      sql`select c.active_roll_id as active,
                   (select count(*)::int from properties p where p.roll_id = c.active_roll_id) as rows,
                   (select imported_records from import_runs r where r.client_id = c.id order by id desc limit 1) as written,
                   (select status from import_runs r where r.client_id = c.id order by id desc limit 1) as status
              from clients c where c.id = ${client.id}`,
    );
    expect(state!.active).toBe(first.run.id);
    expect(state!.rows).toBe(PREVIOUS);
    // It really died midway: its run is still marked as importing, with rows written.
    expect(state!.status).toBe('importing');
    // (Its progress, not its rows: where an unfinished roll's rows live is the importer's business.)
    expect(state!.written).toBeGreaterThan(0);
    const before = await publicView(database, client.id);
    expect(before.status).toEqual([200, 200, 200]);
    expect(before.total).toBe(PREVIOUS);
    expect(before.smiths).toBeGreaterThan(0);
    expect(before.owners.every((o) => /^SMITHA,/.test(o))).toBe(true);
    expect(before.mapLot).toMatch(/^A/);
    await database.close();

    // Re-run with the real command at once, to completion (issue 37): the dead run never blocks it
    // (no "being published right now" until its heartbeat goes stale), and the command says what became
    // of the run before.
    const file = await sharedRollFile(NEXT, 'B');
    const rerun = await runPortal(['import', '--state', 'Maine', '--city', 'Crashville', file], store.env);
    expect(rerun.code, rerun.out).toBe(0);
    expect(rerun.out).not.toMatch(/being published right now/);
    expect(rerun.out).toMatch(/was interrupted: the process running it stopped before it finished/);

    database = await store.open();
    const [after] = await queryRows<{
      rows: number;
      records: number;
      leftovers: number;
      strayTables: number;
      failed: number;
    }>(
      database.db,
      sql`select (select count(*)::int from properties p where p.roll_id = c.active_roll_id) as rows,
                   (select count(*)::int from property_records r where r.roll_id = c.active_roll_id) as records,
                   (select count(*)::int from properties p where p.client_id = c.id and p.roll_id <> c.active_roll_id) as leftovers,
                   -- The killed run's tables (never attached) and the replaced roll's: all dropped.
                   (select count(*)::int from pg_class t
                     where t.relname ~ '^(properties|property_records)_r[0-9]+$'
                       and t.relname not in ('properties_r' || c.active_roll_id,
                                             'property_records_r' || c.active_roll_id)) as "strayTables",
                   (select count(*)::int from import_runs r where r.client_id = c.id and r.status = 'failed') as failed
              from clients c where c.id = ${client.id}`,
    );
    expect(after).toEqual({ rows: NEXT, records: NEXT, leftovers: 0, strayTables: 0, failed: 1 });
    const [killed] = await queryRows<{ message: string | null }>(
      database.db,
      sql`select message from import_runs where client_id = ${client.id} and status = 'failed'`,
    );
    expect(killed!.message).toBe(INTERRUPTED_MESSAGE);
    const now = await publicView(database, client.id);
    expect(now.total).toBe(NEXT);
    expect(now.owners.every((o) => /^SMITHB,/.test(o))).toBe(true);
    expect(now.mapLot).toMatch(/^B/);
    await database.close();
    console.log(
      `crash (${engine}): killed at ${killedAt.toLocaleString('en-US')}/${NEXT.toLocaleString('en-US')} records after ${killSeconds.toFixed(1)} s; ` +
        `previous roll intact (${PREVIOUS.toLocaleString('en-US')} parcels, searchable); re-run imported ${NEXT.toLocaleString('en-US')} in ${(rerun.ms / 1000).toFixed(1)} s`,
    );
  }, 1_200_000);
});
