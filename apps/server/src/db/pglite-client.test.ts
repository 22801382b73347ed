import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFrom, copyTo, openDatabase, queryRows, type Database } from './database.ts';

/*
 * The embedded engine runs in a worker thread (decision 0007); these check what callers rely on across
 * the message boundary: value types, PostgreSQL error fields, transactions, the event loop staying free.
 */

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ engine: 'pglite', dataDir: null });
  await database.execScript(`
    create table t (id int primary key, name text unique, at timestamptz, data bytea, big int8, doc jsonb);
  `);
}, 60_000);
afterAll(() => database?.close());

describe('the PGlite worker', () => {
  it('keeps dates, bytes, big integers and JSON across the thread boundary', async () => {
    const at = new Date('2024-02-29T12:34:56.789Z');
    await database.db.execute(
      sql`insert into t values (1, 'a', ${at}, ${new Uint8Array([0, 1, 255])}, ${'9007199254740993'}, ${JSON.stringify({ x: [1, 'two'] })}::jsonb)`,
    );
    const [row] = await queryRows<{ at: Date; data: Uint8Array; big: string; doc: unknown; n: bigint }>(
      database.db,
      sql`select at, data, big::text as big, doc, 5::int8 * 2 as n from t where id = 1`,
    );
    expect(new Date(row!.at).toISOString()).toBe(at.toISOString());
    expect([...row!.data]).toEqual([0, 1, 255]);
    expect(row!.big).toBe('9007199254740993');
    expect(row!.doc).toEqual({ x: [1, 'two'] });
    expect(Number(row!.n)).toBe(10);
  });

  it('bulk-loads with COPY, and reports a bad row without loading any', async () => {
    await database.execScript('create table loaded (id int primary key, name text)');
    await copyFrom(database.db, 'loaded (id, name)', '1\tcopied\n2\t\\N\n');
    const rows = await queryRows<{ id: number; name: string | null }>(
      database.db,
      sql`select id, name from loaded order by id`,
    );
    expect(rows).toEqual([
      { id: 1, name: 'copied' },
      { id: 2, name: null },
    ]);
    await expect(copyFrom(database.db, 'loaded (id, name)', '3\tfine\nnot a number\tbad\n')).rejects.toThrow(
      /invalid input syntax for type integer/,
    );
    const [left] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from loaded`);
    expect(left!.n).toBe(2);
  });

  it('bulk-loads pieces cut anywhere, larger than the engine reads at once, one load at a time', async () => {
    await database.execScript(
      'create table pieces_a (id int, name text); create table pieces_b (id int, name text)',
    );
    const rows = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `${from + i}\tünï ${'x'.repeat(i % 50)}\n`).join('');
    // 300 kB cut every 7,919 bytes (inside characters too), with an empty piece; a load given as text
    // (the failing one) beside it.
    const bytes = new TextEncoder().encode(rows(0, 10_000));
    const cut = Array.from({ length: Math.ceil(bytes.length / 7919) }, (_, i) =>
      bytes.slice(i * 7919, (i + 1) * 7919),
    );
    const pieces = [...cut.slice(0, 3), new Uint8Array(0), ...cut.slice(3)];
    // Three at once: one with a bad row, which fails alone; the others load their own rows.
    const [a, bad, b] = await Promise.allSettled([
      copyFrom(database.db, 'pieces_a (id, name)', pieces),
      copyFrom(database.db, 'pieces_b (id, name)', '1\tfine\nnot a number\tbad\n'),
      copyFrom(database.db, 'pieces_b (id, name)', rows(20_000, 20_005)),
    ]);
    expect([a.status, bad.status, b.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = await queryRows<{ t: string; n: number; text: string }>(
      database.db,
      sql`select 'a' as t, count(*)::int as n, string_agg(id || E'\t' || name || E'\n', '' order by id) as text
            from pieces_a
          union all
          select 'b', count(*)::int, string_agg(id || E'\t' || name || E'\n', '' order by id) from pieces_b`,
    );
    expect(stored).toEqual([
      { t: 'a', n: 10_000, text: rows(0, 10_000) },
      { t: 'b', n: 5, text: rows(20_000, 20_005) },
    ]);
  });

  it("bulk-reads with COPY, the bytes moved from the engine's thread, and reports a bad query", async () => {
    await database.execScript(`create table read_back (id int, name text);
      insert into read_back values (1, 'tab\there'), (2, null), (3, 'ünï');`);
    const bytes = await copyTo(database.db, 'select id, name from read_back order by id');
    expect(new TextDecoder().decode(bytes)).toBe('1\ttab\\there\n2\t\\N\n3\tünï\n');
    expect(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength).toBe(true);
    expect((await copyTo(database.db, 'select id from read_back where false')).byteLength).toBe(0);
    await expect(copyTo(database.db, 'select nothing from read_back')).rejects.toThrow(/column "nothing"/);
    // The engine is still usable after the failed COPY.
    expect((await copyTo(database.db, 'select count(*) from read_back')).byteLength).toBe(2);
  });

  it('reports PostgreSQL errors with their code and constraint', async () => {
    await database.db.execute(sql`insert into t (id, name) values (2, 'dup')`);
    const err = await database.db.execute(sql`insert into t (id, name) values (3, 'dup')`).catch((e) => e);
    let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined;
    while (e && !e.code) e = e.cause as typeof e;
    expect(e?.code).toBe('23505');
    expect(e?.constraint).toBe('t_name_key');
  });

  it('rolls a transaction back when its callback throws, and keeps what a committed one wrote', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into t (id, name) values (10, 'rolled back')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t (id, name) values (11, 'kept')`);
      // A nested transaction is a savepoint: its failure undoes only its own writes.
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into t (id, name) values (12, 'inner')`);
          throw new Error('inner fails');
        })
        .catch(() => {});
    });
    const ids = await queryRows<{ id: number }>(
      database.db,
      sql`select id from t where id >= 10 order by id`,
    );
    expect(ids.map((r) => r.id)).toEqual([11]);
  });

  it('runs a transaction alone: statements from elsewhere wait until it ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const started = new Promise<void>((r) => (inside = r));
    const txDone = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t (id, name) values (20, 'pending')`);
      inside();
      await held;
    });
    await started;
    const order: string[] = [];
    const outside = queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from t where id = 20`,
    ).then((rows) => {
      order.push('outside');
      return rows[0]!.n;
    });
    await new Promise((r) => setTimeout(r, 50));
    order.push('commit');
    release();
    await txDone;
    // The outside read never saw the transaction half done: it ran after the commit.
    expect(await outside).toBe(1);
    expect(order).toEqual(['commit', 'outside']);
  });

  it('leaves the event loop free while a query runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const ticksBefore = ticks;
    await database.db.execute(
      sql`select count(*) from generate_series(1, 500000) g where md5(g::text) like '0%'`,
    );
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(ticksBefore);
  });

  it('runs migrations scripts all or nothing', async () => {
    await expect(
      database.execScriptInTransaction('create table half (x int); select * from no_such_table;'),
    ).rejects.toThrow(/no_such_table/);
    const rows = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from information_schema.tables where table_name = 'half'`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});

describe('a PGlite data folder', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-pglite-worker-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is locked by this process, keeps its data, and snapshots between transactions', async () => {
    const first = await openDatabase({ engine: 'pglite', dataDir: dir });
    try {
      // The lock file names this process: the folder's lock did not move to the worker.
      expect(fs.readFileSync(path.join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));
      await first.execScript(`create table kept (x int); insert into kept values (42);`);
      const snapshot = await first.snapshot!();
      expect(snapshot.size).toBeGreaterThan(1000);
    } finally {
      await first.close();
    }
    const second = await openDatabase({ engine: 'pglite', dataDir: dir });
    try {
      expect(await queryRows<{ x: number }>(second.db, sql`select x from kept`)).toEqual([{ x: 42 }]);
    } finally {
      await second.close();
    }
  }, 120_000);
});
