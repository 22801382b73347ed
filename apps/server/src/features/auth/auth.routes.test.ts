import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { INVALID_LOGIN_MESSAGE } from '@opp/contracts';
import { queryRows } from '../../db/database.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { authHeader, buildClient, buildUser } from '../../../test/factories.ts';
import { hashToken } from './sessions.service.ts';

const ctx = setupTestApp({ sessionIdleMinutes: 30, sessionMaxHours: 8, providerName: 'Acme Records' });

const PASSWORD = 'correct horse battery';

const login = (Identity: string, Password: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/login', payload: { Identity, Password } });
const me = (id: number, token: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/user/${id}`, headers: { authorization: `Bearer ${token}` } });

describe('POST /api/login', () => {
  it('signs in by username or by email (any case) and the token opens GET /api/user/{id}', async () => {
    const town = await buildClient(ctx.db);
    const user = await buildUser(ctx.db, { roleId: 2, manages: town.id, password: PASSWORD });

    const res = await login(user.username.toUpperCase(), PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      Status: 200,
      user: { UserId: user.id, Username: user.username, RoleID: 2, Manages: town.id },
    });
    // Never the hash or the TOTP secret.
    expect(JSON.stringify(body)).not.toMatch(/scrypt|password|totp_secret/i);
    expect((await me(user.id, body.accessToken)).json()).toMatchObject({ UserId: user.id });

    const byEmail = await login(` ${user.email.toUpperCase()} `, PASSWORD);
    expect(byEmail.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown user identically, after the same hashing work', async () => {
    const user = await buildUser(ctx.db, {
      roleId: 3,
      manages: (await buildClient(ctx.db)).id,
      password: PASSWORD,
    });
    const wrong = await login(user.username, 'not the password at all');
    const unknown = await login('nobody-here', 'not the password at all');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ code: 'unauthorized', message: INVALID_LOGIN_MESSAGE });

    // Without the dummy-hash verification an unknown user would answer ~30x faster than a known one.
    // Interleaved, and the fastest of three each: a busy machine (CI runs suites side by side) only ever
    // adds time, so the minimum is each path's own cost. Three, with the failure above: a fifth failure
    // would bring the login throttle's refusal, which answers before hashing.
    const timed = async (identity: string) => {
      const t = performance.now();
      const res = await login(identity, 'not the password at all');
      const ms = performance.now() - t;
      expect(res.statusCode).toBe(401);
      return ms;
    };
    let known = Infinity;
    let missing = Infinity;
    for (let i = 0; i < 3; i++) {
      known = Math.min(known, await timed(user.username));
      missing = Math.min(missing, await timed('nobody-here'));
    }
    expect(missing / known).toBeGreaterThan(0.33);
    expect(missing / known).toBeLessThan(3);
  });

  it('400 names the missing field', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { Identity: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0]).toMatchObject({ field: 'Password' });
  });

  it('stores only a hash of the token', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const { accessToken } = (await login(user.username, PASSWORD)).json();
    const rows = await queryRows<{ token_hash: string }>(
      ctx.db,
      sql`select token_hash from sessions where user_id = ${user.id}`,
    );
    expect(rows).toEqual([{ token_hash: hashToken(accessToken) }]);
    expect(rows[0]!.token_hash).not.toContain(accessToken);
  });

  it('refuses an account with two-factor sign-in on when no second factor is checked (fails closed)', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    await ctx.db.execute(sql`update users set totp_enabled = true where id = ${user.id}`);
    const res = await login(user.username, PASSWORD);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'two_factor_required' });
    const sessions = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from sessions where user_id = ${user.id}`,
    );
    expect(sessions[0]!.n).toBe(0);
  });
});

describe('sessions end', () => {
  it('on logout, and logout is idempotent', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const { accessToken } = (await login(user.username, PASSWORD)).json();
    const headers = { authorization: `Bearer ${accessToken}` };
    const out = await ctx.app.inject({ method: 'POST', url: '/api/logout', headers });
    expect(out.statusCode).toBe(200);
    expect((await me(user.id, accessToken)).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/logout', headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/logout' })).statusCode).toBe(200);
  });

  it('after the idle limit without requests, and at the absolute limit', async () => {
    const user = await buildUser(ctx.db, { roleId: 1 });
    const idle = (await authHeader(ctx.app, user.id)).authorization.slice(7);
    const old = (await authHeader(ctx.app, user.id)).authorization.slice(7);
    expect((await me(user.id, idle)).statusCode).toBe(200);

    await ctx.db.execute(
      sql`update sessions set last_seen_at = now() - interval '31 minutes' where token_hash = ${hashToken(idle)}`,
    );
    await ctx.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where token_hash = ${hashToken(old)}`,
    );
    const expired = await me(user.id, idle);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'unauthorized' });
    expect((await me(user.id, old)).statusCode).toBe(401);
  });

  it('when the password changes (other sessions) and when the account is deleted', async () => {
    const town = await buildClient(ctx.db);
    const boss = await buildUser(ctx.db, { roleId: 2, manages: town.id });
    const bossHeaders = await authHeader(ctx.app, boss.id);
    const site = await buildUser(ctx.db, { roleId: 3, manages: town.id, password: PASSWORD });
    const t1 = (await login(site.username, PASSWORD)).json().accessToken as string;
    const t2 = (await login(site.username, PASSWORD)).json().accessToken as string;

    // A rename alone keeps sessions…
    const rename = await ctx.app.inject({
      method: 'PUT',
      url: `/api/user/${site.id}`,
      headers: bossHeaders,
      payload: { Username: `${site.username}x`, Email: site.email },
    });
    expect(rename.statusCode).toBe(200);
    expect((await me(site.id, t1)).statusCode).toBe(200);

    // …a new password ends them all, and the old password no longer signs in.
    const reset = await ctx.app.inject({
      method: 'PUT',
      url: `/api/user/${site.id}`,
      headers: bossHeaders,
      payload: { Username: `${site.username}x`, Email: site.email, Password: 'a brand new password' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await me(site.id, t1)).statusCode).toBe(401);
    expect((await me(site.id, t2)).statusCode).toBe(401);
    expect((await login(site.email, PASSWORD)).statusCode).toBe(401);
    const t3 = (await login(site.email, 'a brand new password')).json().accessToken as string;
    expect((await me(site.id, t3)).statusCode).toBe(200);

    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/user/${site.id}`, headers: bossHeaders });
    expect(del.statusCode).toBe(200);
    expect((await me(site.id, t3)).statusCode).toBe(401);
    expect((await login(site.email, 'a brand new password')).statusCode).toBe(401);
  });

  it('a provider admin changing their own password stays signed in here, and only here', async () => {
    const admin = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const here = (await login(admin.username, PASSWORD)).json().accessToken as string;
    const elsewhere = (await login(admin.username, PASSWORD)).json().accessToken as string;
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/user/${admin.id}`,
      headers: { authorization: `Bearer ${here}` },
      payload: {
        Username: admin.username,
        Email: admin.email,
        Password: 'another long password',
        CurrentPassword: PASSWORD,
      },
    });
    expect(res.statusCode).toBe(200);
    expect((await me(admin.id, here)).statusCode).toBe(200);
    expect((await me(admin.id, elsewhere)).statusCode).toBe(401);
  });
});

describe('GET /api/user/{id}', () => {
  it('401 anonymous or with a bad token, 400 bad id, 403 someone else, 404 missing (provider), 200 self', async () => {
    const town = await buildClient(ctx.db);
    const a = await buildUser(ctx.db, { roleId: 2, manages: town.id });
    const b = await buildUser(ctx.db, { roleId: 3, manages: town.id });
    const provider = await buildUser(ctx.db, { roleId: 1 });
    const ah = await authHeader(ctx.app, a.id);
    const ph = await authHeader(ctx.app, provider.id);
    const get = (url: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url, headers });

    expect((await get(`/api/user/${a.id}`)).statusCode).toBe(401);
    expect(
      (await get(`/api/user/${a.id}`, { authorization: 'Bearer forged-token-forged-token-1234' })).statusCode,
    ).toBe(401);
    expect((await get('/api/user/abc', ah)).statusCode).toBe(400);
    expect((await get(`/api/user/${b.id}`, ah)).statusCode).toBe(403);
    expect((await get(`/api/user/${a.id}`, ah)).json()).toMatchObject({ UserId: a.id, Username: a.username });
    expect((await get(`/api/user/${b.id}`, ph)).json()).toMatchObject({ UserId: b.id });
    expect((await get('/api/user/999999', ph)).statusCode).toBe(404);
  });
});

describe('GET /api/config', () => {
  it('gives the provider name to anyone, even with a dead token', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/config',
      headers: { authorization: 'Bearer expired-token-expired-token-00' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ providerName: 'Acme Records', mapTilesUrl: '' });
  });
});
