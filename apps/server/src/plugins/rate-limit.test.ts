import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { queryRows } from '../db/database.ts';
import { setupTestApp } from '../../test/helpers.ts';
import { addressKey, decide, RateLimitCounter } from './rate-limit.ts';

const ctx = setupTestApp({ publicRateLimitPerMinute: 5, exportRateLimitPerMinute: 2 });

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
    const url = '/api/propertysearch/1/export?format=csv';
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
