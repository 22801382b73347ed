import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { loadConfig, parseTrustProxy, testConfig, type Config } from '../config.ts';
import { queryRows } from '../db/database.ts';
import { setupTestApp } from '../../test/helpers.ts';
import { authHeader, buildClient, buildUser } from '../../test/factories.ts';
import { addressKey, decide, RateLimitCounter } from './rate-limit.ts';

const ctx = setupTestApp({
  publicRateLimitPerMinute: 5,
  exportRateLimitPerMinute: 2,
  pageRateLimitPerMinute: 3,
  adminWriteRateLimitPerMinute: 4,
  uploadRateLimitPerMinute: 2,
});

/** Another app over the same database with other settings (closed after the file). */
const extraApps: FastifyInstance[] = [];
async function appWith(overrides: Partial<Config>) {
  const app = await buildApp({ config: { ...ctx.config, ...overrides }, database: ctx.database });
  await app.ready();
  extraApps.push(app);
  return app;
}
afterAll(async () => {
  for (const app of extraApps) await app.close();
});

/** A second API node on the same database, as behind a load balancer. */
let node2: FastifyInstance;
beforeAll(async () => {
  node2 = await buildApp({ config: ctx.config, database: ctx.database });
  await node2.ready();
});
afterAll(async () => node2?.close());

const get = (app: FastifyInstance, url: string, ip: string) =>
  app.inject({ method: 'GET', url, remoteAddress: ip });

/** Any public GET counts, a 404 included (scanning for ids is what the limit slows down). */
const READ = '/api/no-such-page';

describe('public API rate limit (per address, in the database)', () => {
  it('lets the limit through, then answers 429 with Retry-After and the error contract', async () => {
    const ip = '198.51.100.1';
    for (let i = 0; i < 5; i++) expect((await get(ctx.app, READ, ip)).statusCode).toBe(404);
    const res = await get(ctx.app, READ, ip);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(120);
    expect(res.json()).toMatchObject({ statusCode: 429, code: 'too_many_requests' });
    // Another address is unaffected.
    expect((await get(ctx.app, READ, '198.51.100.2')).statusCode).toBe(404);
  });

  it('is shared by every API node: the budget spent on one is gone on the other', async () => {
    const ip = '198.51.100.3';
    for (let i = 0; i < 3; i++) expect((await get(ctx.app, READ, ip)).statusCode).toBe(404);
    for (let i = 0; i < 2; i++) expect((await get(node2, READ, ip)).statusCode).toBe(404);
    expect((await get(node2, READ, ip)).statusCode).toBe(429);
    expect((await get(ctx.app, READ, ip)).statusCode).toBe(429);
  });

  it('counts a POST search, but not admin writes or the docs', async () => {
    const ip = '198.51.100.4';
    for (let i = 0; i < 5; i++)
      await ctx.app.inject({ method: 'POST', url: '/api/propertysearch/1', remoteAddress: ip, payload: {} });
    const search = await ctx.app.inject({
      method: 'POST',
      url: '/api/propertysearch/1',
      remoteAddress: ip,
      payload: {},
    });
    expect(search.statusCode).toBe(429);
    // A write is not a public read: it is limited by authentication, not by this budget.
    const write = await ctx.app.inject({
      method: 'PUT',
      url: '/api/contact/1',
      remoteAddress: ip,
      payload: {},
    });
    expect(write.statusCode).not.toBe(429);
    expect((await get(ctx.app, '/api/docs/', ip)).statusCode).toBe(200);
    expect((await get(ctx.app, '/api/openapi.json', ip)).statusCode).toBe(200);
  });

  it('limits CSV export more strictly than the rest', async () => {
    const ip = '198.51.100.5';
    const url = '/api/propertysearch/1/export.csv';
    expect((await get(ctx.app, url, ip)).statusCode).not.toBe(429);
    expect((await get(ctx.app, url, ip)).statusCode).not.toBe(429);
    const third = await get(ctx.app, url, ip);
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toMatch(/export/i);
    // The export budget is its own: ordinary reads still pass.
    expect((await get(ctx.app, READ, ip)).statusCode).toBe(404);
  });

  it('ignores X-Forwarded-For unless the proxy is trusted', async () => {
    const ip = '198.51.100.6';
    for (let i = 0; i < 5; i++)
      await ctx.app.inject({
        url: READ,
        remoteAddress: ip,
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
    const res = await ctx.app.inject({
      url: READ,
      remoteAddress: ip,
      headers: { 'x-forwarded-for': '203.0.113.99' },
    });
    expect(res.statusCode).toBe(429);
  });

  it('keeps one row per address and budget, not one per request', async () => {
    const rows = await queryRows<{ n: number; hits: number }>(
      ctx.db,
      sql`select count(*)::int as n, coalesce(sum(hits + prev_hits), 0)::int as hits
            from rate_limit_hits where key = '198.51.100.1'`,
    );
    expect(rows[0]!.hits).toBeGreaterThanOrEqual(6);
    expect(rows[0]!.n).toBe(1);
  });
});

/** Sends one raw request line to a listening server and returns the status code. */
function rawRequest(port: number, requestLine: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`${requestLine}\r\nHost: portal.test\r\nConnection: close\r\n\r\n`),
    );
    let head = '';
    socket.on('data', (chunk) => (head += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
  });
}

describe('budgets follow the matched route, not the raw URL (issue 37)', () => {
  it.each([
    ['a trailing slash', '/api/propertysearch/1/export.csv/', '198.51.100.21'],
    ['an encoded dot', '/api/propertysearch/1/export%2Ecsv', '198.51.100.22'],
    ['an encoded letter', '/api/propertysearch/1/export.cs%76', '198.51.100.23'],
    ['a query string', '/api/propertysearch/1/export.csv?query=smith', '198.51.100.24'],
  ])('counts the CSV export reached with %s in the export budget', async (_name, url, ip) => {
    expect((await get(ctx.app, url, ip)).statusCode).not.toBe(429);
    expect((await get(ctx.app, url, ip)).statusCode).not.toBe(429);
    const third = await get(ctx.app, url, ip);
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toMatch(/export/i);
  });

  it('limits a request line in absolute form (GET http://host/api/… HTTP/1.1) like any other', async () => {
    const app = await appWith({});
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    const exportLine = 'GET http://portal.test/api/propertysearch/1/export.csv HTTP/1.1';
    const exports = [];
    for (let i = 0; i < 3; i++) exports.push(await rawRequest(port, exportLine));
    expect(exports.slice(0, 2)).not.toContain(429);
    expect(exports[2]).toBe(429);
    const readLine = 'GET http://portal.test/api/client/1 HTTP/1.1';
    const reads = [];
    for (let i = 0; i < 6; i++) reads.push(await rawRequest(port, readLine));
    expect(reads.slice(0, 5)).not.toContain(429);
    expect(reads[5]).toBe(429);
  });

  it('gives the server-rendered town pages a budget of their own', async () => {
    const ip = '198.51.100.40';
    const pages = ['/maine/harrison', '/maine/harrison/search', '/maine/harrison/1234'];
    for (const url of pages) expect((await get(ctx.app, url, ip)).statusCode).not.toBe(429);
    const fourth = await get(ctx.app, '/maine/harrison/5678', ip);
    expect(fourth.statusCode).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Their own budget: the API still answers that address.
    expect((await get(ctx.app, READ, ip)).statusCode).toBe(404);
  });

  it('limits a signed-in user’s writes per user, whatever address they come from', async () => {
    const client = await buildClient(ctx.db);
    const admin = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 2, manages: client.id })).id);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/contact',
        headers: admin,
        remoteAddress: `198.51.100.${50 + i}`,
        payload: { ClientID: client.id, Title: `Treasurer ${i}`, ContactEmail: 'treasurer@example.gov' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429]);
    // Another admin of the same town, at the same address, is not held back.
    const other = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 2, manages: client.id })).id);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: other,
      remoteAddress: '198.51.100.54',
      payload: { ClientID: client.id, Title: 'Assessor', ContactEmail: 'assessor@example.gov' },
    });
    expect(res.statusCode).toBe(201);
  });

  it('limits image uploads per user before the upload is read', async () => {
    const client = await buildClient(ctx.db);
    const admin = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 2, manages: client.id })).id);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/image',
        headers: { ...admin, 'content-type': 'multipart/form-data; boundary=x' },
        remoteAddress: `198.51.100.${60 + i}`,
        payload: '--x--\r\n',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 2)).not.toContain(429);
    expect(statuses[2]).toBe(429);
  });

  it('lets a busy shared address (a library, a town office) search at ordinary rates', async () => {
    const app = await appWith({ publicRateLimitPerMinute: loadConfig({}).publicRateLimitPerMinute });
    const ip = '198.51.100.70';
    let refused = 0;
    // 1,000 requests in a few seconds: the old limit (600 a minute) refused 400 of them.
    for (let i = 0; i < 1000; i++) if ((await get(app, READ, ip)).statusCode === 429) refused++;
    expect(refused).toBe(0);
  });
});

describe('TRUST_PROXY: which X-Forwarded-For hops are believed (issue 37)', () => {
  const PROXY = '10.0.0.5';

  it.each([
    ['a hop count', 1, '203.0.113.71'],
    ['the proxy’s address', ['10.0.0.5'], '203.0.113.72'],
    ['the proxies’ network', ['10.0.0.0/8'], '203.0.113.73'],
  ])(
    'with %s, a forged extra hop changes neither the rate-limit key nor the audited address',
    async (_n, trust, CLIENT) => {
      const app = await appWith({ trustProxy: trust });
      const client = await buildClient(ctx.db);
      // nginx appends the address it saw to whatever the client sent: `forged, real`.
      const forged = (i: number) => ({ 'x-forwarded-for': `192.0.2.${i}, ${CLIENT}` });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await app.inject({ url: READ, remoteAddress: PROXY, headers: forged(i) })).statusCode);
      expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);

      const admin = await authHeader(app, (await buildUser(ctx.db, { roleId: 2, manages: client.id })).id);
      const created = await app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: PROXY,
        headers: { ...admin, ...forged(99) },
        payload: { ClientID: client.id, Title: 'Clerk', ContactEmail: 'clerk@example.gov' },
      });
      expect(created.statusCode).toBe(201);
      const [row] = await queryRows<{ ip: string }>(
        ctx.db,
        sql`select ip from audit_log where client_id = ${client.id} order by id desc limit 1`,
      );
      expect(row?.ip).toBe(CLIENT);
    },
  );

  it('reads TRUST_PROXY as none, a hop count or a list of proxies, and refuses anything else', () => {
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 10.1.0.0/16, fd00::/8')).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      'fd00::/8',
    ]);
    expect(parseTrustProxy('10.0.0.0/33')).toBeUndefined();
    expect(parseTrustProxy('proxy.example')).toBeUndefined();
    expect(() => loadConfig({ TRUST_PROXY: 'everything' })).toThrow(/TRUST_PROXY/);
    expect(testConfig().trustProxy).toBe(false);
  });
});

describe('counting in process, shared through the database', () => {
  const shared = async (key: string) => {
    const rows = await queryRows<{ hits: number }>(
      ctx.db,
      sql`select hits from rate_limit_hits where bucket = 'public' and key = ${key}`,
    );
    return rows[0]?.hits ?? 0;
  };

  it('costs no database write per request far from the limit, and flushes the sum of every node', async () => {
    const key = '192.0.2.10';
    const a = new RateLimitCounter(ctx.db);
    const b = new RateLimitCounter(ctx.db);
    for (let i = 0; i < 20; i++) expect((await a.count('public', key, 1000)).allowed).toBe(true);
    // Only the first request of an address a node has not seen is counted synchronously.
    expect(await shared(key)).toBe(1);
    for (let i = 0; i < 15; i++) expect((await b.count('public', key, 1000)).allowed).toBe(true);
    await Promise.all([a.flush(), b.flush()]);
    expect(await shared(key)).toBe(35);
  });

  it('is exact near the limit: two nodes together let the budget through, no more', async () => {
    const key = '192.0.2.11';
    const nodes = [new RateLimitCounter(ctx.db), new RateLimitCounter(ctx.db)];
    let allowed = 0;
    for (let i = 0; i < 40; i++) if ((await nodes[i % 2]!.count('public', key, 20)).allowed) allowed++;
    expect(allowed).toBe(20);
  });
});

describe('sliding-window arithmetic', () => {
  it('weights the previous minute by the share of it still inside the window', () => {
    expect(decide(5, 0, 10, 5).allowed).toBe(true);
    expect(decide(6, 0, 10, 5)).toMatchObject({ allowed: false, retryAfterSeconds: 60 - 10 + 10 });
    // Half-way through the minute, half of the previous minute still counts: 4 + 2 = 6 > 5.
    expect(decide(2, 8, 30, 5)).toMatchObject({ allowed: false });
    // …and fades after (60 - 30) - (5 - 2) * 60 / 8 = 7.5 s.
    expect(decide(2, 8, 30, 5).retryAfterSeconds).toBe(8);
    expect(decide(2, 8, 45, 5).allowed).toBe(true);
  });

  it('groups IPv6 addresses by /64 and unwraps IPv4-mapped ones', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
  });
});
