import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ImportRunDto } from '@opp/contracts';
import { queryRows } from '../../db/database.ts';
import { buildApp } from '../../app.ts';
import { setupTestApp, testEngine } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { usersRepository } from '../users/users.repository.ts';
import { rollsRepository } from './rolls.repository.ts';
import { propertiesRepository } from '../properties/properties.repository.ts';
import { tryImportLock } from './import-lock.ts';

const ctx = setupTestApp();

let seq = 0;
async function signIn(roleId: 1 | 2 | 3 | 4, manages: number | null = null) {
  seq++;
  const user = await usersRepository.insert(ctx.db, {
    username: `roller${seq}_${roleId}`,
    email: `roller${seq}_${roleId}@example.test`,
    roleId,
    manages,
    passwordHash: 'not-a-real-hash',
  });
  const token = await ctx.app.sessions.create(user.id, { ip: null, userAgent: null });
  return { user, headers: { authorization: `Bearer ${token}` } };
}

/** A multipart/form-data body holding one file, as a browser's FormData would send it. */
function upload(fileName: string, content: string | Buffer, field = 'file') {
  const boundary = `----opp${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const rec = (account: string, extra: Record<string, unknown> = {}) => ({
  Account: account,
  StreetNumber: '5',
  StreetName: 'Harbor Rd',
  MapLot: `U07-${account}`,
  Owners: [{ OwnerName: `OWNER ${account}` }],
  ...extra,
});
const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** Uploads a roll through `node` (this test's app unless a second node is given). */
async function publish(
  clientId: number,
  headers: Record<string, string>,
  fileName: string,
  body: string,
  node: { inject: typeof ctx.app.inject } = ctx.app,
) {
  const u = upload(fileName, body);
  return node.inject({
    method: 'POST',
    url: `/api/rolls/${clientId}`,
    payload: u.payload,
    headers: { ...headers, ...u.headers },
  });
}

/** Polls the run as the console does until the background import has finished. */
async function waitForRun(clientId: number, runId: number, headers: Record<string, string>) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/rolls/${clientId}/runs/${runId}`, headers });
    expect(res.statusCode).toBe(200);
    const run = res.json() as ImportRunDto;
    if (run.Status === 'succeeded' || run.Status === 'failed') return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.Status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function rowsOfRoll(rollId: number) {
  const rows = await queryRows<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from properties where roll_id = ${rollId}`,
  );
  return rows[0]!.n;
}

async function publishedAccounts(clientId: number) {
  const rows = await queryRows<{ account: string }>(
    ctx.db,
    sql`select p.account from properties p join clients c on c.active_roll_id = p.roll_id
         where c.id = ${clientId} order by p.account`,
  );
  return rows.map((r) => r.account);
}

describe('roll publishing access', () => {
  it('401 without a session and 403 for roles 2, 3 and 4 on every call; nothing is stored', async () => {
    const client = await buildClient(ctx.db);
    const calls = [
      { method: 'POST' as const, url: `/api/rolls/${client.id}`, ...upload('r.jsonl', jsonl([rec('1')])) },
      { method: 'GET' as const, url: `/api/rolls/${client.id}`, payload: undefined, headers: {} },
      { method: 'GET' as const, url: `/api/rolls/${client.id}/runs/1`, payload: undefined, headers: {} },
    ];
    for (const c of calls) {
      const anon = await ctx.app.inject({
        method: c.method,
        url: c.url,
        payload: c.payload,
        headers: c.headers,
      });
      expect(anon.statusCode).toBe(401);
      for (const roleId of [2, 3, 4] as const) {
        const u = await signIn(roleId, client.id);
        const res = await ctx.app.inject({
          method: c.method,
          url: c.url,
          payload: c.payload,
          headers: { ...c.headers, ...u.headers },
        });
        expect(res.statusCode).toBe(403);
      }
    }
    expect(await rollsRepository.listRuns(ctx.db, client.id)).toEqual([]);
  });

  it('404 for an unknown client or a run of another client; 400 for a bad id', async () => {
    const provider = await signIn(1);
    const res = await publish(999999, provider.headers, 'r.jsonl', jsonl([rec('1')]));
    expect(res.statusCode).toBe(404);
    const hist = await ctx.app.inject({ method: 'GET', url: '/api/rolls/999999', headers: provider.headers });
    expect(hist.statusCode).toBe(404);
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/rolls/x1', headers: provider.headers });
    expect(bad.statusCode).toBe(400);

    const a = await buildClient(ctx.db);
    const b = await buildClient(ctx.db);
    const started = await publish(a.id, provider.headers, 'a.jsonl', jsonl([rec('1')]));
    expect(started.statusCode).toBe(202);
    const runId = (started.json() as ImportRunDto).RunID;
    await waitForRun(a.id, runId, provider.headers);
    const cross = await ctx.app.inject({
      method: 'GET',
      url: `/api/rolls/${b.id}/runs/${runId}`,
      headers: provider.headers,
    });
    expect(cross.statusCode).toBe(404);
  });

  it('400 naming the file for a missing file or an unreadable format; 415 when not multipart', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const xls = await publish(client.id, provider.headers, 'roll.xlsx', 'PK\u0003\u0004');
    expect(xls.statusCode).toBe(400);
    expect(xls.json()).toMatchObject({
      fields: [{ field: 'file', message: 'The roll must be a JSON Lines (.jsonl) or CSV (.csv) file.' }],
    });
    const boundary = '----oppempty';
    const none = await ctx.app.inject({
      method: 'POST',
      url: `/api/rolls/${client.id}`,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--${boundary}--\r\n`,
      headers: { ...provider.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().fields[0].field).toBe('file');
    const json = await ctx.app.inject({
      method: 'POST',
      url: `/api/rolls/${client.id}`,
      payload: { Account: '1' },
      headers: provider.headers,
    });
    expect(json.statusCode).toBe(415);
    expect(await rollsRepository.listRuns(ctx.db, client.id)).toEqual([]);
  });
});

describe('publishing a roll', () => {
  it('imports a good file in the background, replacing the roll, and lists it in the history', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    await publishRoll(ctx.db, client.id, [rec('OLD1'), rec('OLD2')]);

    const file = jsonl([rec('1'), rec('2'), rec('3')]);
    const res = await publish(client.id, provider.headers, 'C:\\exports\\harbor-2025.jsonl', file);
    expect(res.statusCode).toBe(202);
    const started = res.json() as ImportRunDto;
    expect(started).toMatchObject({
      ClientID: client.id,
      Actor: provider.user.username,
      FileName: 'harbor-2025.jsonl',
      Status: 'validating',
    });

    const done = await waitForRun(client.id, started.RunID, provider.headers);
    expect(done).toMatchObject({ Status: 'succeeded', TotalRecords: 3, ImportedRecords: 3, ErrorCount: 0 });
    // How far it got, by the file: all of it read. The index phase is over once the run has ended.
    expect(done).toMatchObject({ FileBytes: Buffer.byteLength(file), BytesRead: Buffer.byteLength(file) });
    expect(done.Indexing).toBe(false);
    const [stored] = await queryRows<{ indexing: boolean }>(
      ctx.db,
      sql`select indexing from import_runs where id = ${started.RunID}`,
    );
    expect(stored!.indexing).toBe(true);
    expect(done.FinishedAt).not.toBeNull();
    expect(await publishedAccounts(client.id)).toEqual(['1', '2', '3']);

    const list = await ctx.app.inject({ method: 'GET', url: '/api/clients', headers: provider.headers });
    const row = (list.json() as Array<{ ClientID: number; ParcelCount: number; LastUpdated: string }>).find(
      (c) => c.ClientID === client.id,
    )!;
    expect(row.ParcelCount).toBe(3);
    expect(Date.parse(row.LastUpdated)).toBeGreaterThanOrEqual(Date.parse(started.StartedAt));

    const hist = await ctx.app.inject({
      method: 'GET',
      url: `/api/rolls/${client.id}`,
      headers: provider.headers,
    });
    const runs = hist.json() as ImportRunDto[];
    expect(runs[0]).toMatchObject({
      RunID: started.RunID,
      Actor: provider.user.username,
      FileName: 'harbor-2025.jsonl',
      Status: 'succeeded',
      TotalRecords: 3,
    });
    // The factory's earlier publish is the older entry.
    expect(runs.map((r) => r.RunID)).toEqual([...runs.map((r) => r.RunID)].sort((a, b) => b - a));
    expect(runs).toHaveLength(2);
  });

  it('accepts files far larger than the JSON body limit (streamed to disk, not buffered)', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const body = jsonl(Array.from({ length: 9_000 }, (_, i) => rec(String(i + 1))));
    expect(Buffer.byteLength(body)).toBeGreaterThan(ctx.app.initialConfig.bodyLimit ?? 0);
    const res = await publish(client.id, provider.headers, 'large.jsonl', body);
    expect(res.statusCode).toBe(202);
    const run = await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider.headers);
    expect(run).toMatchObject({ Status: 'succeeded', TotalRecords: 9_000, ImportedRecords: 9_000 });
  });

  it('a file with errors changes nothing and reports each problem by line', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    await publishRoll(ctx.db, client.id, [rec('A'), rec('B')]);
    const [before] = await queryRows<{ parcel_count: number; last_updated: Date; active_roll_id: number }>(
      ctx.db,
      sql`select parcel_count, last_updated, active_roll_id from clients where id = ${client.id}`,
    );

    const body =
      jsonl([rec('1')]) +
      JSON.stringify(rec('2', { Sales: [{ SalePrice: 'N/A' }] })) +
      '\n{ not json\n' +
      JSON.stringify(rec('1')) +
      '\n';
    const res = await publish(client.id, provider.headers, 'bad.jsonl', body);
    expect(res.statusCode).toBe(202);
    const run = await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider.headers);
    expect(run.Status).toBe('failed');
    expect(run.ErrorCount).toBe(3);
    expect(run.Errors).toHaveLength(3);
    expect(run.Errors[0]).toBe('line 2: Sales[0].SalePrice: expected a number, got "N/A"');
    expect(run.Errors[1]).toMatch(/^line 3: not valid JSON/);
    expect(run.Errors[2]).toBe('line 4: Account: 1 appears again (first on line 1)');
    expect(run.Message).toMatch(/nothing was changed/);

    expect(await publishedAccounts(client.id)).toEqual(['A', 'B']);
    const [after] = await queryRows<{ parcel_count: number; last_updated: Date; active_roll_id: number }>(
      ctx.db,
      sql`select parcel_count, last_updated, active_roll_id from clients where id = ${client.id}`,
    );
    expect(after).toEqual(before);
    const stray = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from properties where roll_id = ${run.RunID}`,
    );
    expect(stray[0]!.n).toBe(0);

    const empty = await publish(client.id, provider.headers, 'empty.jsonl', '');
    const emptyRun = await waitForRun(client.id, (empty.json() as ImportRunDto).RunID, provider.headers);
    expect(emptyRun).toMatchObject({ Status: 'failed', Errors: ['the file holds no records'] });
    expect(await publishedAccounts(client.id)).toEqual(['A', 'B']);
  });

  it('reads CSV rolls too, naming the column of a bad cell', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const good =
      'Account,StreetNumber,StreetName,OwnerName,LandValue\n101,4,Elm St,SMITH JOHN,45000\n102,6,Elm St,DOE JANE,\n';
    const ok = await publish(client.id, provider.headers, 'elm.csv', good);
    expect(ok.statusCode).toBe(202);
    const run = await waitForRun(client.id, (ok.json() as ImportRunDto).RunID, provider.headers);
    expect(run).toMatchObject({ Status: 'succeeded', TotalRecords: 2, FileName: 'elm.csv' });
    expect(run).toMatchObject({ FileBytes: Buffer.byteLength(good), BytesRead: Buffer.byteLength(good) });
    expect(await publishedAccounts(client.id)).toEqual(['101', '102']);

    const bad = 'Account,StreetName,LandValue\n201,Oak St,lots\n';
    const res = await publish(client.id, provider.headers, 'oak.csv', bad);
    const failed = await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider.headers);
    expect(failed.Status).toBe('failed');
    expect(failed.Errors[0]).toMatch(/^line 2: LandValue: /);
    expect(await publishedAccounts(client.id)).toEqual(['101', '102']);
  });

  it('runs one import per client at a time, and takes over the lock of a run whose node died', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const other = await buildClient(ctx.db);
    // Another node's import in progress: it holds the client's import lock (PostgreSQL; on the embedded
    // engine its run's row and heartbeat stand for it) and its run is in progress.
    const nodeLock = (await tryImportLock(ctx.db, client.id))!;
    const running = await rollsRepository.createRun(ctx.db, {
      clientId: client.id,
      userId: null,
      actor: 'node-2',
      fileName: 'running.jsonl',
    });
    const blocked = await publish(client.id, provider.headers, 'next.jsonl', jsonl([rec('1')]));
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toMatch(/already being published.*running\.jsonl/);

    // Other clients are not held up.
    const elsewhere = await publish(other.id, provider.headers, 'other.jsonl', jsonl([rec('9')]));
    expect(elsewhere.statusCode).toBe(202);
    await waitForRun(other.id, (elsewhere.json() as ImportRunDto).RunID, provider.headers);

    // The database alone refuses a second running row, whatever the application checked.
    await expect(
      rollsRepository.createRun(ctx.db, {
        clientId: client.id,
        userId: null,
        actor: 'x',
        fileName: 'x.jsonl',
      }),
    ).rejects.toThrow();

    await ctx.db.execute(
      sql`update import_runs set heartbeat_at = now() - interval '10 minutes' where id = ${running.id}`,
    );
    if (testEngine === 'postgres') {
      // A heartbeat is only progress: a node that holds the lock is alive, however slow its writes.
      const slow = await publish(client.id, provider.headers, 'next.jsonl', jsonl([rec('1')]));
      expect(slow.statusCode).toBe(409);
    }
    // The other node died: its session ended, so the server released its lock (and its heartbeat
    // stopped). Its run is abandoned and the lock is free again.
    await nodeLock.release();
    const res = await publish(client.id, provider.headers, 'next.jsonl', jsonl([rec('1')]));
    expect(res.statusCode).toBe(202);
    const run = await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider.headers);
    expect(run.Status).toBe('succeeded');
    const dead = await rollsRepository.findRun(ctx.db, running.id);
    expect(dead).toMatchObject({ status: 'failed' });
    expect(dead?.message).toMatch(/Interrupted/);
  });

  it('two uploads at once for one client: one is accepted, the other refused', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const records = Array.from({ length: 300 }, (_, i) => rec(String(i + 1)));
    const [a, b] = await Promise.all([
      publish(client.id, provider.headers, 'a.jsonl', jsonl(records)),
      publish(client.id, provider.headers, 'b.jsonl', jsonl(records)),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    const accepted = (a.statusCode === 202 ? a : b).json() as ImportRunDto;
    expect((await waitForRun(client.id, accepted.RunID, provider.headers)).Status).toBe('succeeded');
    expect(await publishedAccounts(client.id)).toHaveLength(300);
  });
});

describe('a node shutting down mid-import', () => {
  it('marks its run failed, removes the half-written rows and frees the lock at once', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    await publishRoll(ctx.db, client.id, [rec('KEEP')]);
    // A second API node over the same database, stopped while it imports.
    const node2 = await buildApp({ config: ctx.config, database: ctx.database });
    await node2.ready();
    const records = Array.from({ length: 5000 }, (_, i) => rec(String(i + 1)));
    const res = await publish(client.id, provider.headers, 'big.jsonl', jsonl(records), node2);
    expect(res.statusCode).toBe(202);
    const runId = (res.json() as ImportRunDto).RunID;
    await node2.close();

    const run = await waitForRun(client.id, runId, provider.headers);
    expect(run.Status).toBe('failed');
    expect(run.Message).toMatch(/server stopped/);
    expect(await publishedAccounts(client.id)).toEqual(['KEEP']);
    expect(await rowsOfRoll(runId)).toBe(0);
    // This node may publish straight away.
    const next = await publish(client.id, provider.headers, 'small.jsonl', jsonl([rec('NEW')]));
    expect(next.statusCode).toBe(202);
    await waitForRun(client.id, (next.json() as ImportRunDto).RunID, provider.headers);
    expect(await publishedAccounts(client.id)).toEqual(['NEW']);
  });

  it('keeps the replaced roll readable for its grace period, then drops it; a stop meanwhile leaves it to the next sweep', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const { client: before } = await publishRoll(ctx.db, client.id, [rec('OLD1')]);
    const oldRoll = before.activeRollId!;
    // A node whose replaced rolls stay for a second (the default is ROLL_RETIRE_SECONDS=10).
    const node2 = await buildApp({ config: { ...ctx.config, rollRetireSeconds: 1 }, database: ctx.database });
    await node2.ready();
    const publishOn = async (fileName: string, accounts: string[]) => {
      const body = jsonl(accounts.map((a) => rec(a)));
      const res = await publish(client.id, provider.headers, fileName, body, node2);
      expect(res.statusCode).toBe(202);
      return (await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider.headers)).RunID;
    };
    const oldRecord = () =>
      propertiesRepository.findRecord(ctx.db, { clientId: client.id, rollId: oldRoll }, 'OLD1');
    try {
      const second = await publishOn('second.jsonl', ['NEW1']);
      expect(await publishedAccounts(client.id)).toEqual(['NEW1']);
      // A reader that looked the town up just before the swap still finds the record it asks for…
      expect(await oldRecord()).toMatchObject({ Account: 'OLD1' });
      // …and so does it during another import's start, whose sweep spares a roll in its grace period.
      expect(await rollsRepository.dropAbandonedRolls(ctx.db, 1000)).toBe(0);
      expect(await oldRecord()).not.toBeNull();
      const deadline = Date.now() + 10_000;
      while ((await oldRecord()) !== null && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(await oldRecord()).toBeNull();

      // The node stops during the next grace period: the replaced roll stays, and is not published…
      await publishOn('third.jsonl', ['NEWER1']);
      await node2.close();
      expect(await rowsOfRoll(second)).toBe(1);
      expect(await publishedAccounts(client.id)).toEqual(['NEWER1']);
      // …until the next publish sweeps it.
      const next = await publish(client.id, provider.headers, 'fourth.jsonl', jsonl([rec('LAST1')]));
      expect(next.statusCode).toBe(202);
      await waitForRun(client.id, (next.json() as ImportRunDto).RunID, provider.headers);
      expect(await rowsOfRoll(second)).toBe(0);
    } finally {
      await node2.close();
    }
  });
});

describe('what a roll’s values date from (issue 48)', () => {
  /** The upload with text fields before the file, as the console's form sends them. */
  function uploadWithFields(fields: Record<string, string>, fileName: string, content: string) {
    const boundary = `----opp${randomBytes(8).toString('hex')}`;
    const parts = Object.entries(fields).map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
    const payload = Buffer.from(
      parts.join('') +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`,
    );
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }
  const town = async (clientId: number) =>
    (await ctx.app.inject({ method: 'GET', url: `/api/client/${clientId}` })).json() as Record<
      string,
      unknown
    >;
  const searchDates = async (clientId: number) => {
    const res = await ctx.app.inject({ method: 'POST', url: `/api/propertysearch/${clientId}`, payload: {} });
    expect(res.statusCode).toBe(200);
    const { LastUpdated, TaxYear, ValuationDate } = res.json() as Record<string, unknown>;
    return { LastUpdated, TaxYear, ValuationDate };
  };

  it('keeps the fiscal year and valuation date the provider gives, and the town and its results say them', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    // The records carry tax year 2013; the provider's fiscal year wins.
    const records = [rec('1', { Taxes: [{ TaxYear: 2013 }] }), rec('2')];
    const dating = { fiscalYear: '2014', valuationDate: '2013-01-01' };
    // The preview says what the provider gave, before anything is published.
    const p = uploadWithFields(dating, 'harbor-fy14.jsonl', jsonl(records));
    const preview = await ctx.app.inject({
      method: 'POST',
      url: `/api/rolls/${client.id}/preview`,
      payload: p.payload,
      headers: { ...provider.headers, ...p.headers },
    });
    expect(preview.json()).toMatchObject({ Records: 2, FiscalYear: 2014, ValuationDate: '2013-01-01' });
    const u = uploadWithFields(dating, 'harbor-fy14.jsonl', jsonl(records));
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/rolls/${client.id}`,
      payload: u.payload,
      headers: { ...provider.headers, ...u.headers },
    });
    expect(res.statusCode).toBe(202);
    const done = await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider.headers);
    expect(done.Status).toBe('succeeded');

    const t = await town(client.id);
    expect(t).toMatchObject({ TaxYear: 2014, ValuationDate: '2013-01-01' });
    expect(typeof t.LastUpdated).toBe('string');
    expect(await searchDates(client.id)).toEqual({
      LastUpdated: t.LastUpdated,
      TaxYear: 2014,
      ValuationDate: '2013-01-01',
    });
  });

  it('a roll published without them is dated by its records’ tax year, or by nothing but its publish day', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    let res = await publish(
      client.id,
      provider.headers,
      'a.jsonl',
      jsonl([rec('1', { Taxes: [{ TaxYear: 2024 }] })]),
    );
    await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider.headers);
    expect(await town(client.id)).toMatchObject({ TaxYear: 2024, ValuationDate: null });

    res = await publish(client.id, provider.headers, 'b.jsonl', jsonl([rec('1')]));
    await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider.headers);
    const t = await town(client.id);
    expect(t).toMatchObject({ TaxYear: null, ValuationDate: null });
    expect(await searchDates(client.id)).toMatchObject({ TaxYear: null, ValuationDate: null });
  });

  it('400 naming the field for a fiscal year or valuation date that is not one; nothing is started', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    for (const [fields, field] of [
      [{ fiscalYear: 'FY14' }, 'fiscalYear'],
      [{ fiscalYear: '1492' }, 'fiscalYear'],
      [{ valuationDate: '1/1/2013' }, 'valuationDate'],
      [{ valuationDate: '2013-02-30' }, 'valuationDate'],
    ] as const) {
      const u = uploadWithFields(fields, 'x.jsonl', jsonl([rec('1')]));
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/rolls/${client.id}`,
        payload: u.payload,
        headers: { ...provider.headers, ...u.headers },
      });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect((res.json() as { fields: Array<{ field: string }> }).fields[0]!.field).toBe(field);
    }
    const hist = await ctx.app.inject({
      method: 'GET',
      url: `/api/rolls/${client.id}`,
      headers: provider.headers,
    });
    expect(hist.json()).toEqual([]);
  });
});
