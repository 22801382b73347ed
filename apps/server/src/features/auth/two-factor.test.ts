import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/database.ts';
import { setupTestApp, type TestContext } from '../../../test/helpers.ts';
import { authHeader, buildClient, buildUser } from '../../../test/factories.ts';
import { Secret as OtpSecret } from 'otpauth';
import { hashRecoveryCode, matchStep, stepAt, totp } from './two-factor.totp.ts';

const ctx = setupTestApp({ providerName: 'Acme Records' });
const strict = setupTestApp({ requireTotpForProvider: true });

const PASSWORD = 'a long enough password';
let ipSeq = 0;

function login(c: TestContext, Identity: string, Code?: string) {
  return c.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { Identity, Password: PASSWORD, ...(Code === undefined ? {} : { Code }) },
    remoteAddress: `198.18.0.${++ipSeq}`,
  });
}

async function enrol(c: TestContext, headers: Record<string, string>) {
  const start = await c.app.inject({ method: 'POST', url: '/api/two-factor/start', headers });
  expect(start.statusCode).toBe(200);
  const { Secret } = start.json() as { Secret: string };
  const confirm = await c.app.inject({
    method: 'POST',
    url: '/api/two-factor/confirm',
    headers,
    payload: { Code: totp(Secret, Date.now()) },
  });
  expect(confirm.statusCode).toBe(200);
  return { secret: Secret, recoveryCodes: (confirm.json() as { RecoveryCodes: string[] }).RecoveryCodes };
}

/** A code valid now that no earlier sign-in can have used: the next 30-second step (inside the ±1 window). */
const nextCode = (secret: string) => totp(secret, Date.now() + 30_000);

describe('TOTP (RFC 6238 appendix B test vectors, SHA-1)', () => {
  const secret = OtpSecret.fromLatin1('12345678901234567890').base32;
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('T = %i s → %s', (t, expected) => {
    expect(totp(secret, t * 1000, 8)).toBe(expected);
  });

  it('accepts one step of drift either side, and only steps after the last one used', () => {
    const now = 1_700_000_000_000;
    const s = stepAt(now);
    const codeAt = (step: number) => totp(secret, step * 30_000);
    expect(matchStep(secret, codeAt(s - 1), now, null)).toBe(s - 1);
    expect(matchStep(secret, codeAt(s + 1), now, null)).toBe(s + 1);
    expect(matchStep(secret, codeAt(s - 2), now, null)).toBeNull();
    expect(matchStep(secret, codeAt(s), now, s)).toBeNull();
    expect(matchStep(secret, 'abcdef', now, null)).toBeNull();
  });
});

describe('two-factor enrolment', () => {
  it('start → otpauth URI; a wrong code changes nothing; a good code turns it on and shows recovery codes once', async () => {
    const user = await buildUser(ctx.db, {
      roleId: 2,
      manages: (await buildClient(ctx.db)).id,
      password: PASSWORD,
    });
    const headers = await authHeader(ctx.app, user.id);

    expect((await ctx.app.inject({ method: 'POST', url: '/api/two-factor/start' })).statusCode).toBe(401);

    const start = await ctx.app.inject({ method: 'POST', url: '/api/two-factor/start', headers });
    const { Secret, OtpauthUri } = start.json();
    expect(Secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(OtpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Acme Records:${user.username}`);
    expect(uri.searchParams.get('secret')).toBe(Secret);
    expect(uri.searchParams.get('issuer')).toBe('Acme Records');
    expect((await ctx.app.inject({ url: '/api/two-factor', headers })).json()).toMatchObject({
      Enabled: false,
      Pending: true,
    });

    const wrongCode = String((Number(totp(Secret, Date.now())) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/two-factor/confirm',
      headers,
      payload: { Code: wrongCode },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields[0].field).toBe('Code');
    // Not on yet: the password alone still signs in.
    expect((await login(ctx, user.username)).statusCode).toBe(200);

    const good = await ctx.app.inject({
      method: 'POST',
      url: '/api/two-factor/confirm',
      headers,
      payload: { Code: totp(Secret, Date.now()) },
    });
    expect(good.statusCode).toBe(200);
    const codes: string[] = good.json().RecoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);

    // Stored hashed only.
    const stored = await queryRows<{ code_hash: string }>(
      ctx.db,
      sql`select code_hash from totp_recovery_codes where user_id = ${user.id}`,
    );
    expect(stored.map((r) => r.code_hash).sort()).toEqual(codes.map(hashRecoveryCode).sort());
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.replace('-', ''));

    expect((await ctx.app.inject({ url: '/api/two-factor', headers })).json()).toEqual({
      Enabled: true,
      Pending: false,
      RecoveryCodesLeft: 10,
      Required: false,
    });
    // Enrolling again needs turning it off first.
    expect((await ctx.app.inject({ method: 'POST', url: '/api/two-factor/start', headers })).statusCode).toBe(
      409,
    );
    // The change is in the audit log, without the secret.
    const audit = await queryRows<{ action: string; after: unknown }>(
      ctx.db,
      sql`select action, after from audit_log where entity = 'user' and entity_id = ${String(user.id)}`,
    );
    expect(audit).toEqual([{ action: 'two_factor.enable', after: { TwoFactorEnabled: true } }]);
  });
});

describe('signing in with two-factor on', () => {
  it('asks for the code, refuses a wrong one, accepts a good one once (replay refused)', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const { secret } = await enrol(ctx, await authHeader(ctx.app, user.id));

    const missing = await login(ctx, user.username);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 'two_factor_required' });

    const bad = await login(ctx, user.username, '000000' === nextCode(secret) ? '111111' : '000000');
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ code: 'two_factor_required' });
    expect(bad.json().message).toMatch(/not accepted/);

    const code = nextCode(secret);
    const good = await login(ctx, user.username, code);
    expect(good.statusCode).toBe(200);
    expect(good.json().accessToken).toEqual(expect.any(String));

    const replay = await login(ctx, user.username, code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 'two_factor_required' });

    // No session came from any refused attempt.
    const sessions = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from sessions where user_id = ${user.id}`,
    );
    expect(sessions[0]!.n).toBe(2); // the enrolment session and the one good sign-in
  });

  it('a recovery code signs in once and is used up', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const headers = await authHeader(ctx.app, user.id);
    const { recoveryCodes } = await enrol(ctx, headers);

    const first = await login(ctx, user.username, recoveryCodes[3]!.toUpperCase());
    expect(first.statusCode).toBe(200);
    const again = await login(ctx, user.username, recoveryCodes[3]!);
    expect(again.statusCode).toBe(401);
    expect((await ctx.app.inject({ url: '/api/two-factor', headers })).json().RecoveryCodesLeft).toBe(9);
    const audit = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from audit_log where action = 'two_factor.recovery_code_used' and entity_id = ${String(user.id)} and after = '{"CodesLeft": 9}'::jsonb`,
    );
    expect(audit[0]!.n).toBe(1);
  });

  it('wrong codes use up the sign-in budget; asking for the code does not', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const { secret } = await enrol(ctx, await authHeader(ctx.app, user.id));
    for (let i = 0; i < 7; i++) expect((await login(ctx, user.username)).statusCode).toBe(401);
    const wrong = nextCode(secret) === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect((await login(ctx, user.username, wrong)).statusCode).toBe(401);
    expect((await login(ctx, user.username, nextCode(secret))).statusCode).toBe(429);
  });

  it('turning it off needs a valid code', async () => {
    const user = await buildUser(ctx.db, {
      roleId: 3,
      manages: (await buildClient(ctx.db)).id,
      password: PASSWORD,
    });
    const headers = await authHeader(ctx.app, user.id);
    const { secret } = await enrol(ctx, headers);
    const off = (Code: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/two-factor/disable', headers, payload: { Code } });
    expect((await off('12345')).statusCode).toBe(400);
    expect((await off(nextCode(secret) === '999999' ? '888888' : '999999')).statusCode).toBe(400);
    expect((await off(nextCode(secret))).statusCode).toBe(200);
    expect((await login(ctx, user.username)).statusCode).toBe(200);
    const left = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from totp_recovery_codes where user_id = ${user.id}`,
    );
    expect(left[0]!.n).toBe(0);
  });

  it('a signed-in session cannot guess codes: after 5 wrong ones even a right one gets 429; a right one resets the count', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const headers = await authHeader(ctx.app, user.id);
    const { secret } = await enrol(ctx, headers);
    const wrong = nextCode(secret) === '222222' ? '333333' : '222222';
    const post = (path: string, Code: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/two-factor/${path}`, headers, payload: { Code } });

    for (let i = 0; i < 4; i++) expect((await post('disable', wrong)).statusCode).toBe(400);
    const renewed = await post('recovery-codes', nextCode(secret));
    expect(renewed.statusCode).toBe(200);
    const recoveryCodes: string[] = renewed.json().RecoveryCodes;

    // Turning it off and new recovery codes share one budget, apart from the sign-in's.
    for (let i = 0; i < 5; i++)
      expect((await post(i % 2 ? 'disable' : 'recovery-codes', wrong)).statusCode).toBe(400);
    const locked = await post('disable', recoveryCodes[0]!);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    expect(locked.json()).toMatchObject({ code: 'too_many_requests' });
    expect(locked.json().message).toMatch(/Too many two-factor codes tried; try again in \d+ minutes/);
    expect((await ctx.app.inject({ url: '/api/two-factor', headers })).json().Enabled).toBe(true);
    expect((await login(ctx, user.username, recoveryCodes[1]!)).statusCode).toBe(200);
  });
});

describe('new recovery codes', () => {
  const replace = (c: TestContext, headers: Record<string, string>, Code: string) =>
    c.app.inject({ method: 'POST', url: '/api/two-factor/recovery-codes', headers, payload: { Code } });

  it('a current code replaces every recovery code: the old ones stop working, the new ones sign in', async () => {
    const user = await buildUser(ctx.db, {
      roleId: 2,
      manages: (await buildClient(ctx.db)).id,
      password: PASSWORD,
    });
    const headers = await authHeader(ctx.app, user.id);
    const { secret, recoveryCodes: old } = await enrol(ctx, headers);
    expect((await login(ctx, user.username, old[0]!)).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/api/two-factor', headers })).json().RecoveryCodesLeft).toBe(9);

    const res = await replace(ctx, headers, nextCode(secret));
    expect(res.statusCode).toBe(200);
    const fresh: string[] = res.json().RecoveryCodes;
    expect(Object.keys(res.json())).toEqual(['RecoveryCodes']);
    expect(fresh).toHaveLength(10);
    expect(new Set(fresh).size).toBe(10);
    for (const c of fresh) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(fresh.filter((c) => old.includes(c))).toEqual([]);
    expect((await ctx.app.inject({ url: '/api/two-factor', headers })).json()).toMatchObject({
      Enabled: true,
      RecoveryCodesLeft: 10,
    });

    // Every old code, used or not, is refused; a new one signs in (once).
    for (const c of [old[0]!, old[1]!, old[9]!])
      expect((await login(ctx, user.username, c)).statusCode).toBe(401);
    expect((await login(ctx, user.username, fresh[4]!)).statusCode).toBe(200);
    expect((await login(ctx, user.username, fresh[4]!)).statusCode).toBe(401);

    // Audited with counts only; no code or hash anywhere in the entry.
    const audit = await queryRows<{
      actor_user_id: number;
      client_id: number;
      before: unknown;
      after: unknown;
    }>(
      ctx.db,
      sql`select actor_user_id, client_id, before, after from audit_log
          where action = 'two_factor.recovery_codes_replaced' and entity_id = ${String(user.id)}`,
    );
    expect(audit).toEqual([
      { actor_user_id: user.id, client_id: user.manages, before: { CodesLeft: 9 }, after: { CodesLeft: 10 } },
    ]);
    const entry = JSON.stringify(audit);
    for (const c of [...fresh, ...old]) {
      expect(entry).not.toContain(c);
      expect(entry).not.toContain(hashRecoveryCode(c));
    }
  });

  it('refuses a wrong code, a replayed code and a recovery code, and keeps the old codes', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const headers = await authHeader(ctx.app, user.id);
    const { secret, recoveryCodes } = await enrol(ctx, headers);
    const hashes = async () =>
      (
        await queryRows<{ code_hash: string }>(
          ctx.db,
          sql`select code_hash from totp_recovery_codes where user_id = ${user.id} order by code_hash`,
        )
      ).map((r) => r.code_hash);
    const before = await hashes();

    const wrong = await replace(ctx, headers, nextCode(secret) === '000000' ? '111111' : '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual([{ field: 'Code', message: expect.stringMatching(/not accepted/) }]);

    const withRecovery = await replace(ctx, headers, recoveryCodes[0]!);
    expect(withRecovery.statusCode).toBe(400);
    expect(withRecovery.json().message).toMatch(/authenticator app.*administrator must reset/);

    // A code already spent on a sign-in is refused, like a replayed sign-in.
    const code = nextCode(secret);
    expect((await login(ctx, user.username, code)).statusCode).toBe(200);
    expect((await replace(ctx, headers, code)).statusCode).toBe(400);

    expect(await hashes()).toEqual(before);
    // The recovery code offered above was not spent.
    expect((await login(ctx, user.username, recoveryCodes[0]!)).statusCode).toBe(200);
    const audit = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from audit_log where action = 'two_factor.recovery_codes_replaced'
          and entity_id = ${String(user.id)}`,
    );
    expect(audit[0]!.n).toBe(0);
  });

  it('a code that got new recovery codes cannot be replayed to sign in', async () => {
    const user = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
    const headers = await authHeader(ctx.app, user.id);
    const { secret } = await enrol(ctx, headers);
    const code = nextCode(secret);
    expect((await replace(ctx, headers, code)).statusCode).toBe(200);
    expect((await replace(ctx, headers, code)).statusCode).toBe(400);
    expect((await login(ctx, user.username, code)).statusCode).toBe(401);
  });

  it('answers 409 while two-factor sign-in is off (or only started), and 401 when not signed in', async () => {
    const user = await buildUser(ctx.db, { roleId: 3, manages: (await buildClient(ctx.db)).id });
    const headers = await authHeader(ctx.app, user.id);
    const off = await replace(ctx, headers, '123456');
    expect(off.statusCode).toBe(409);
    expect(off.json().message).toMatch(/off/);

    const start = await ctx.app.inject({ method: 'POST', url: '/api/two-factor/start', headers });
    const pending = await replace(ctx, headers, totp(start.json().Secret, Date.now()));
    expect(pending.statusCode).toBe(409);
    const stored = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from totp_recovery_codes where user_id = ${user.id}`,
    );
    expect(stored[0]!.n).toBe(0);

    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/two-factor/recovery-codes',
      payload: { Code: '123456' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(Object.keys(anonymous.json())).not.toContain('RecoveryCodes');
  });

  it('is open to a provider admin who must keep two-factor sign-in on', async () => {
    const admin = await buildUser(strict.db, { roleId: 1, password: PASSWORD });
    const headers = await authHeader(strict.app, admin.id);
    const { secret, recoveryCodes } = await enrol(strict, headers);
    const res = await replace(strict, headers, nextCode(secret));
    expect(res.statusCode).toBe(200);
    expect(res.json().RecoveryCodes).toHaveLength(10);
    expect((await login(strict, admin.username, recoveryCodes[0]!)).statusCode).toBe(401);
  });
});

describe('REQUIRE_TOTP_FOR_PROVIDER', () => {
  it('lets a provider admin without it sign in, but only to enrol (403 two_factor_required elsewhere)', async () => {
    const admin = await buildUser(strict.db, { roleId: 1, password: PASSWORD });
    const res = await login(strict, admin.username);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.TwoFactorEnabled).toBe(false);
    const headers = { authorization: `Bearer ${res.json().accessToken}` };

    const blocked = await strict.app.inject({ url: `/api/user/${admin.id}`, headers });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ code: 'two_factor_required' });
    expect((await strict.app.inject({ url: '/api/two-factor', headers })).json()).toMatchObject({
      Enabled: false,
      Required: true,
    });

    const { secret } = await enrol(strict, headers);
    expect((await strict.app.inject({ url: `/api/user/${admin.id}`, headers })).statusCode).toBe(200);
    // And it cannot be turned off again.
    const off = await strict.app.inject({
      method: 'POST',
      url: '/api/two-factor/disable',
      headers,
      payload: { Code: nextCode(secret) },
    });
    expect(off.statusCode).toBe(403);
  });

  it('leaves town admins free to choose', async () => {
    const town = await buildClient(strict.db);
    const boss = await buildUser(strict.db, { roleId: 2, manages: town.id, password: PASSWORD });
    const res = await login(strict, boss.username);
    const headers = { authorization: `Bearer ${res.json().accessToken}` };
    expect((await strict.app.inject({ url: `/api/user/${boss.id}`, headers })).statusCode).toBe(200);
  });
});
