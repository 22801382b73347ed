import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../src/db/database.ts';
import type { Role } from '@opp/contracts';
import { authHeader, buildClient, buildUser, publishRoll } from '../factories.ts';
import { TEST_TOWN } from '../test-town.ts';

/*
 * The cast of the attack tests: two towns with rolls, contacts and banners, and one caller of each kind.
 * Every request in the tables targets town A, so "Super Administrator of town B" is the tenant-isolation
 * attacker and "RoleID 4 of town A" the insider without admin rights.
 */

export const CALLERS = ['anonymous', 'role4A', 'siteA', 'superA', 'superB', 'provider'] as const;
export type Caller = (typeof CALLERS)[number];

type RoleId = (typeof Role)[keyof typeof Role];

export const PASSWORD = 'security tests password';

export interface World {
  app: FastifyInstance;
  db: Db;
  townA: { id: number; city: string; state: string };
  townB: { id: number; city: string; state: string };
  userIds: Record<Exclude<Caller, 'anonymous'>, number>;
  usernames: Record<Exclude<Caller, 'anonymous'>, string>;
  headers: Record<Caller, Record<string, string>>;
  /** A Site Administrator of town A whom others edit in the tables. */
  targetUserA: number;
  contactA: number;
  contactB: number;
  /** A small valid PNG. */
  png: Buffer;
  seq: () => number;
}

let seq = 0;

export async function tinyPng(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 80, b: 160 } } })
    .png()
    .toBuffer();
}

/** A multipart/form-data body (built by hand so tests control every byte). */
export function multipart(
  parts: { name: string; value?: string; filename?: string; type?: string; data?: Buffer }[],
  boundary = `----oppboundary${Math.random().toString(16).slice(2)}`,
): { payload: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'latin1'));
    chunks.push(p.data ?? Buffer.from(p.value ?? '', 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function buildWorld(app: FastifyInstance, db: Db): Promise<World> {
  const a = await buildClient(db, { city: `Alpha ${++seq}`, stateProvince: 'Maine' });
  const b = await buildClient(db, { city: `Bravo ${++seq}`, stateProvince: 'Maine' });
  await publishRoll(db, a.id, TEST_TOWN);
  await publishRoll(db, b.id, TEST_TOWN);

  const mk = (roleId: RoleId, manages: number | null, name: string) =>
    buildUser(db, { roleId, manages, username: `${name}${++seq}`, password: PASSWORD });
  const users = {
    role4A: await mk(4, a.id, 'lowera'),
    siteA: await mk(3, a.id, 'sitea'),
    superA: await mk(2, a.id, 'supera'),
    superB: await mk(2, b.id, 'superb'),
    provider: await mk(1, null, 'provider'),
  };
  const target = await buildUser(db, { roleId: 3, manages: a.id, username: `targeta${++seq}` });

  const headers = { anonymous: {} } as Record<Caller, Record<string, string>>;
  for (const [k, u] of Object.entries(users)) headers[k as Caller] = await authHeader(app, u.id);

  const contact = async (clientId: number) => {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`insert into contacts (client_id, title) values (${clientId}, 'Town Clerk') returning id`,
    );
    return rows[0]!.id;
  };

  const png = await tinyPng();
  const world: World = {
    app,
    db,
    townA: { id: a.id, city: a.city, state: a.stateProvince },
    townB: { id: b.id, city: b.city, state: b.stateProvince },
    userIds: Object.fromEntries(Object.entries(users).map(([k, u]) => [k, u.id])) as World['userIds'],
    usernames: Object.fromEntries(
      Object.entries(users).map(([k, u]) => [k, u.username]),
    ) as World['usernames'],
    headers,
    targetUserA: target.id,
    contactA: await contact(a.id),
    contactB: await contact(b.id),
    png,
    seq: () => ++seq,
  };
  await ensureBanner(world, a.id);
  await ensureBanner(world, b.id);
  return world;
}

/** The client's banner file name, uploading one (as the provider) when it has none. */
export async function ensureBanner(w: World, clientId: number): Promise<string> {
  const rows = await queryRows<{ banner_image: string | null }>(
    w.db,
    sql`select banner_image from clients where id = ${clientId}`,
  );
  if (rows[0]?.banner_image) return rows[0].banner_image;
  const body = multipart([
    { name: 'ClientID', value: String(clientId) },
    { name: 'file', filename: 'banner.png', type: 'image/png', data: w.png },
  ]);
  const res = await w.app.inject({
    method: 'POST',
    url: '/api/image',
    headers: { ...w.headers.provider, ...body.headers },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`banner upload failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { BannerImage: string }).BannerImage;
}

export async function newContact(w: World, clientId: number): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    w.db,
    sql`insert into contacts (client_id, title) values (${clientId}, 'Assessor') returning id`,
  );
  return rows[0]!.id;
}

/**
 * Waits until no roll import is running and its background work has settled (a 202 from POST
 * /api/rolls goes on after the answer, and the old roll's rows are removed after the swap).
 */
export async function waitForImports(db: Db, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const rows = await queryRows<{ running: number; sig: string }>(
      db,
      sql`select (select count(*)::int from import_runs where status in ('validating', 'importing')) as running,
                 (select count(*) from properties)::text || ':' ||
                 (select count(*) from property_records)::text || ':' ||
                 (select coalesce(string_agg(id || status || imported_records, ',' order by id), '') from import_runs) as sig`,
    );
    const { running, sig } = rows[0]!;
    if (running === 0 && sig === last) return;
    last = sig;
    if (Date.now() > until) throw new Error('an import is still running');
    // Every accepted upload waits here (about 200 per fuzz run): at 25 ms a poll, the sleeps were half of
    // the upload route's 20 s. Row writes end with the run's final status; only the old roll's DROP may
    // follow, and that fires no row trigger.
    await new Promise((r) => setTimeout(r, 5));
  }
}

/*
 * What "nothing changed" means: every table's rows, except the ones a refused request is meant to touch
 * (rate-limit counters, login throttle) and the session columns that only record activity.
 */
const VOLATILE = new Set(['rate_limit_hits', 'login_throttle', 'schema_migrations', 'write_probe']);

export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const tables = await queryRows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables
         where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const out: Record<string, string> = {};
  for (const { table_name: t } of tables) {
    if (VOLATILE.has(t)) continue;
    const row =
      t === 'sessions'
        ? sql`s.token_hash || ':' || s.user_id || ':' || s.expires_at::text`
        : sql.raw(`s::text`);
    const rows = await queryRows<{ h: string | null }>(
      db,
      sql`select md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as h from ${sql.identifier(t)} s`,
    );
    out[t] = rows[0]!.h ?? '';
  }
  return out;
}

export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]);
}

/*
 * A cheap write detector for the fuzzer: a row-level trigger on every table bumps one counter, in the
 * writing transaction (so a rolled-back write does not count). Reading the counter is one query.
 */
export async function installWriteProbe(db: Db): Promise<() => Promise<number>> {
  await db.execute(sql`create table if not exists write_probe (n bigint not null)`);
  await db.execute(sql`insert into write_probe select 0 where not exists (select 1 from write_probe)`);
  await db.execute(
    sql.raw(`create or replace function write_probe_bump() returns trigger language plpgsql as $$
      begin update write_probe set n = n + 1; return null; end $$`),
  );
  const tables = await queryRows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables
         where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  for (const { table_name: t } of tables) {
    if (VOLATILE.has(t) || t === 'sessions') continue;
    await db.execute(
      sql.raw(`create trigger write_probe_${t} after insert or update or delete on "${t}"
               for each row execute function write_probe_bump()`),
    );
  }
  return async () => {
    const rows = await queryRows<{ n: string | number }>(db, sql`select n from write_probe`);
    return Number(rows[0]!.n);
  };
}
