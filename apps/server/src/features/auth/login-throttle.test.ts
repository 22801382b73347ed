import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../app.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, buildUser } from '../../../test/factories.ts';
import { IP_POLICY, USER_POLICY, step } from './login-throttle.ts';
import type { ThrottleState } from './login-throttle.repository.ts';
import * as password from './password.ts';

// Counts scrypt verifications, to prove a refused attempt never reaches the hash.
vi.mock('./password.ts', async (importOriginal) => {
  const real = await importOriginal<typeof password>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
const verifySpy = vi.mocked(password.verifyPassword);

const ctx = setupTestApp();
const PASSWORD = 'the right password, long enough';

let node2: FastifyInstance;
beforeAll(async () => {
  node2 = await buildApp({ config: ctx.config, database: ctx.database });
  await node2.ready();
});
afterAll(async () => node2?.close());

let ipSeq = 0;
/** Each test signs in from its own address so the per-address budget of one test does not leak into another. */
const freshIp = () => `192.0.2.${++ipSeq}`;

const login = (Identity: string, Password: string, ip: string, app: FastifyInstance = ctx.app) =>
  app.inject({ method: 'POST', url: '/api/login', payload: { Identity, Password }, remoteAddress: ip });

describe('login throttling per account', () => {
  it('allows 5 failures, then refuses with 429 and Retry-After before hashing — even the right password', async () => {
    const user = await buildUser(ctx.db, {
      roleId: 3,
      manages: (await buildClient(ctx.db)).id,
      password: PASSWORD,
    });
    const ip = freshIp();
    for (let i = 0; i < 5; i++)
      expect((await login(user.username, 'wrong password!', ip)).statusCode).toBe(401);

    verifySpy.mockClear();
    const blocked = await login(user.username, PASSWORD, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'too_many_requests' });
    const retry = Number(blocked.headers['retry-after']);
    expect(retry).toBeGreaterThan(800);
    expect(retry).toBeLessThanOrEqual(900);
    expect(verifySpy).not.toHaveBeenCalled();
  });

  it('treats an unknown username exactly like a real one (no enumeration through the throttle)', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++)
      expect((await login('no-such-admin', 'wrong password!', ip)).statusCode).toBe(401);
    const blocked = await login('no-such-admin', 'wrong password!', ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many sign-in attempts; try again in 1[45] minutes$/);
  });

  it('forgets failures after a success', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const ip = freshIp();
    for (let i = 0; i < 4; i++) await login(user.username, 'wrong password!', ip);
    expect((await login(user.username, PASSWORD, ip)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await login(user.username, 'wrong password!', ip)).statusCode).toBe(401);
    expect((await login(user.username, 'wrong password!', ip)).statusCode).toBe(429);
  });

  it('counts across API nodes (kept in the database)', async () => {
    const user = await buildUser(ctx.db, {
      roleId: 2,
      manages: (await buildClient(ctx.db)).id,
      password: PASSWORD,
    });
    for (let i = 0; i < 3; i++)
      expect((await login(user.username, 'nope nope nope', freshIp())).statusCode).toBe(401);
    for (let i = 0; i < 2; i++)
      expect((await login(user.username, 'nope nope nope', freshIp(), node2)).statusCode).toBe(401);
    expect((await login(user.username, PASSWORD, freshIp(), node2)).statusCode).toBe(429);
    expect((await login(user.username, PASSWORD, freshIp())).statusCode).toBe(429);
  });

  it('lets no parallel burst past the budget: at most 5 of 20 simultaneous guesses are hashed', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    verifySpy.mockClear();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => login(user.username, 'parallel guess', freshIp())),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(15);
    expect(verifySpy).toHaveBeenCalledTimes(5);
  });

  it('grows the lock-out: a second round of failures locks for 30 minutes', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const ip = freshIp();
    for (let i = 0; i < 6; i++) await login(user.username, 'wrong password!', ip);
    // Fast-forward: the first lock-out is over.
    await ctx.db.execute(
      sql`update login_throttle set locked_until = now() - interval '1 second', window_start = now() - interval '1 second'
           where scope = 'user' and locked_until is not null and strikes = 1`,
    );
    for (let i = 0; i < 5; i++)
      expect((await login(user.username, 'wrong password!', freshIp())).statusCode).toBe(401);
    const blocked = await login(user.username, PASSWORD, freshIp());
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(1700);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(1800);
  });

  it('stores no typed identity: keys are hashes', async () => {
    const rows = await ctx.db.execute(sql`select key from login_throttle where scope = 'user'`);
    const keys = (rows as unknown as { rows: { key: string }[] }).rows.map((r) => r.key);
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('login throttling per address', () => {
  it('allows 25 attempts per 5 minutes from one address, whatever the usernames, then 429', async () => {
    const ip = freshIp();
    for (let i = 0; i < 25; i++)
      expect((await login(`someone-${i}`, 'wrong password!', ip)).statusCode).toBe(401);
    const blocked = await login('someone-else', 'wrong password!', ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/from your address/);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(300);
    // Another address is not affected.
    expect((await login('someone-else', 'wrong password!', freshIp())).statusCode).toBe(401);
  }, 120_000);
});

describe('throttle schedule (pure)', () => {
  const t0 = new Date('2030-01-01T00:00:00Z');
  const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

  it('per account: 5 per 15 minutes, then locks that double: 15 min (window end), 30, 60, … capped at a day', () => {
    let s: ThrottleState | null = null;
    const attempt = (min: number) => {
      const r = step(s, at(min), USER_POLICY);
      s = r.state;
      return r;
    };
    for (let i = 0; i < 5; i++) expect(attempt(i).allowed).toBe(true);
    const first = attempt(5);
    expect(first.allowed).toBe(false);
    expect(first.retryAfterMs).toBe(10 * 60_000); // the window that began at minute 0 ends at 15
    expect(attempt(14).allowed).toBe(false);
    for (let i = 0; i < 5; i++) expect(attempt(15 + i).allowed).toBe(true);
    const second = attempt(20);
    expect(second.allowed).toBe(false);
    expect(second.retryAfterMs).toBe(30 * 60_000);
    for (let i = 0; i < 5; i++) expect(attempt(50 + i).allowed).toBe(true);
    expect(attempt(55).retryAfterMs).toBe(60 * 60_000);
    // A day of silence forgets the strikes.
    for (let i = 0; i < 5; i++) expect(attempt(60 * 30 + i).allowed).toBe(true);
    expect(attempt(60 * 30 + 5).retryAfterMs).toBe(10 * 60_000);
  });

  it('per address: 25 per 5 minutes, no growth', () => {
    let s: ThrottleState | null = null;
    for (let round = 0; round < 3; round++) {
      const start = round * 5;
      for (let i = 0; i < 25; i++) {
        const r = step(s, at(start), IP_POLICY);
        s = r.state;
        expect(r.allowed).toBe(true);
      }
      const r = step(s, at(start + 1), IP_POLICY);
      s = r.state;
      expect(r.allowed).toBe(false);
      expect(r.retryAfterMs).toBe(4 * 60_000);
    }
  });
});
