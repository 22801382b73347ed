import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/database.ts';
import { importRoll } from '../../src/features/imports/import.service.ts';
import { buildClient, buildUser } from '../factories.ts';
import {
  engine,
  freshStore,
  percentile,
  recordSource,
  startPortalProcess,
  writeRollFile,
  type PortalProcess,
  type Store,
} from './support.ts';

/*
 * Public search and property reads at concurrency 32 for at least 60 seconds, while the provider
 * publishes a 100,000-parcel roll through the API and an admin keeps editing a contact. Every answer
 * must be a success, and every search answer must come wholly from the old roll or wholly from the new
 * one (the generated rolls mark every parcel with their letter, A or B).
 */

const OLD = 20_000;
const NEW = 100_000;
const CONCURRENCY = 32;
const MIN_SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const PASSWORD = 'load test provider password';
const QUERIES = ['', 'smith', 'johnson', 'main', 'oak ave', 'clark'];
const SORTS = ['MapLot', 'Name', 'Location', 'BuildingLand', 'Acres', 'SaleDate', 'SalePrice'];

let store: Store | null = null;
let portal: PortalProcess | null = null;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-loadrun-'));
afterAll(async () => {
  await portal?.stop();
  await store?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface SearchAnswer {
  query: string;
  gen: string;
  total: number;
  mixed: boolean;
}

describe(`load with faults (${engine})`, () => {
  it(`serves 32 concurrent readers with 0 errors while a 100,000-record roll is published and contacts change`, async () => {
    store = await freshStore();
    const database = await store.open();
    const client = await buildClient(database.db, { city: 'Loadville', stateProvince: 'Maine' });
    const old = await importRoll(
      database.db,
      { clientId: client.id, userId: null, actor: 'load test', fileName: 'old.jsonl' },
      recordSource(OLD, 'A'),
    );
    expect(old.ok).toBe(true);
    const provider = await buildUser(database.db, {
      roleId: 1,
      username: 'loadprovider',
      password: PASSWORD,
    });
    const [contact] = await queryRows<{ id: number }>(
      database.db,
      sql`insert into contacts (client_id, title) values (${client.id}, 'Clerk') returning id`,
    );
    await database.close();
    void provider;

    const rollFile = path.join(tmp, 'new.jsonl');
    await writeRollFile(rollFile, NEW, 'B');

    portal = await startPortalProcess({
      ...store.env,
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
      EXPORT_RATE_LIMIT_PER_MINUTE: '100000000',
    });
    const base = portal.url;
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Identity: 'loadprovider', Password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const auth = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };

    const latencies: number[] = [];
    const errors: string[] = [];
    let served = 0;
    let over500 = 0;
    const answers: SearchAnswer[] = [];
    const propertyGens = { A: 0, B: 0 };
    let running = true;

    const timed = async (url: string, init: RequestInit = {}) => {
      const t = performance.now();
      try {
        const res = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
        const body = await res.text();
        latencies.push(performance.now() - t);
        served++;
        if (res.status >= 500) over500++;
        if (res.status !== 200)
          errors.push(`${init.method ?? 'GET'} ${url} → ${res.status} ${body.slice(0, 200)}`);
        return res.status === 200 ? (JSON.parse(body) as Record<string, unknown>) : null;
      } catch (err) {
        errors.push(`${init.method ?? 'GET'} ${url} → ${(err as Error).message}`);
        return null;
      }
    };

    const reader = async (n: number) => {
      let i = n;
      while (running) {
        i += 7919;
        if (i % 3 === 0) {
          const account = (i % OLD) + 1;
          const p = await timed(`${base}/api/fullproperty/${account}?city=Loadville&state=ME`);
          const gen = String(p?.MapLot ?? '').charAt(0);
          if (p && (gen === 'A' || gen === 'B') && p.Account === String(account)) propertyGens[gen]++;
          else if (p) errors.push(`property ${account}: unexpected ${JSON.stringify(p).slice(0, 200)}`);
        } else {
          const query = QUERIES[i % QUERIES.length]!;
          const body = { sort: { sortby: SORTS[i % SORTS.length], descending: i % 2 === 0 } };
          const r = await timed(
            `${base}/api/propertysearch/${client.id}?query=${encodeURIComponent(query)}&page=${(i % 3) + 1}&pagesize=50`,
            { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
          );
          if (!r) continue;
          const gens = new Set((r.SearchProperties as { MapLot: string }[]).map((p) => p.MapLot.charAt(0)));
          answers.push({
            query,
            gen: [...gens].join(''),
            total: r.TotalRecords as number,
            mixed: gens.size > 1,
          });
        }
      }
    };

    let edits = 0;
    const editor = async () => {
      while (running) {
        const res = await timed(`${base}/api/contact/${contact!.id}`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ ClientID: client.id, Title: `Clerk ${++edits}` }),
        });
        void res;
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    const started = Date.now();
    const workers = [...Array.from({ length: CONCURRENCY }, (_, n) => reader(n)), editor()];

    // A few seconds in, the provider publishes the new roll through the API.
    await new Promise((r) => setTimeout(r, 5_000));
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(rollFile)]), 'new.jsonl');
    const upload = await fetch(`${base}/api/rolls/${client.id}`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(202);
    const { RunID } = (await upload.json()) as { RunID: number };
    let importStatus = 'validating';
    let importSeconds = 0;
    while (Date.now() - started < 20 * 60_000) {
      await new Promise((r) => setTimeout(r, 2_000));
      const res = await fetch(`${base}/api/rolls/${client.id}/runs/${RunID}`, { headers: auth });
      importStatus = ((await res.json()) as { Status: string }).Status;
      if (importStatus === 'succeeded' || importStatus === 'failed') {
        importSeconds = (Date.now() - started) / 1000 - 5;
        break;
      }
    }
    // Keep the load on for at least the minimum, and a little past the swap.
    const endAt = Math.max(started + MIN_SECONDS * 1000, Date.now() + 5_000);
    while (Date.now() < endAt) await new Promise((r) => setTimeout(r, 500));
    running = false;
    await Promise.all(workers);
    const seconds = (Date.now() - started) / 1000;

    // What each search should have said, measured on each roll once the dust has settled.
    const expected: Record<string, Record<string, number>> = { A: {}, B: {} };
    const totalsNow = await Promise.all(
      QUERIES.map(async (q) => {
        const r = await fetch(`${base}/api/propertysearch/${client.id}?query=${encodeURIComponent(q)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        return [q, ((await r.json()) as { TotalRecords: number }).TotalRecords] as const;
      }),
    );
    for (const [q, t] of totalsNow) expected.B![q] = t;
    for (const a of answers)
      if (a.gen === 'A' && expected.A![a.query] === undefined) expected.A![a.query] = a.total;
    const inconsistent = answers.filter(
      (a) => a.mixed || (a.gen !== '' && expected[a.gen] && a.total !== expected[a.gen]![a.query]),
    );
    const fromOld = answers.filter((a) => a.gen === 'A').length;
    const fromNew = answers.filter((a) => a.gen === 'B').length;

    console.log(
      `load (${engine}): ${served.toLocaleString('en-US')} requests in ${seconds.toFixed(0)} s at concurrency ${CONCURRENCY} ` +
        `(${(served / seconds).toFixed(0)}/s), ${errors.length} errors, ${over500} ≥ 500, ` +
        `p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, ` +
        `p99 ${percentile(latencies, 99).toFixed(0)} ms; searches from the old roll ${fromOld}, from the new ${fromNew}, ` +
        `mixed or miscounted ${inconsistent.length}; property reads A ${propertyGens.A} / B ${propertyGens.B}; ` +
        `${edits} contact edits; import of ${NEW.toLocaleString('en-US')} ${importStatus} in ${importSeconds.toFixed(0)} s`,
    );
    expect(errors.slice(0, 10)).toEqual([]);
    expect(over500).toBe(0);
    expect(importStatus).toBe('succeeded');
    expect(inconsistent.slice(0, 5)).toEqual([]);
    expect(expected.B!['']).toBe(NEW);
    expect(fromNew).toBeGreaterThan(0);
    expect(edits).toBeGreaterThan(10);
  }, 1_800_000);
});
