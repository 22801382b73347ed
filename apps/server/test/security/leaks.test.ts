import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/database.ts';
import { hashToken } from '../../src/features/auth/sessions.service.ts';
import { totp } from '../../src/features/auth/two-factor.totp.ts';
import { createTestDatabase, type TestDatabase } from '../helpers.ts';
import { buildClient, buildUser } from '../factories.ts';

/*
 * What must never leave the server: password hashes, TOTP secrets and stack traces in answers; and
 * passwords, tokens, secrets and recovery codes in the log (which is read by more people, and kept
 * longer, than the database).
 */

const log: string[] = [];
const logStream = new Writable({
  write(chunk, _enc, done) {
    log.push(String(chunk));
    done();
  },
});

let app: FastifyInstance;
let db: Db;
let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.database.db;
  // The most talkative level: if it is not logged at trace, it is not logged at all.
  app = await buildApp({ config: testConfig({ logLevel: 'trace' }), database: testDb.database, logStream });
  await app.ready();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const PASSWORD = 'Correct-Horse-Battery-9137';
const WRONG = 'Wrong-Guess-Password-4411';
const NEW_ADMIN_PASSWORD = 'Brand-New-Admin-Password-5520';

describe('secrets stay out of answers and logs', () => {
  it('a full admin session logs no password, token, TOTP secret or recovery code', async () => {
    const town = await buildClient(db);
    const boss = await buildUser(db, { roleId: 2, manages: town.id, password: PASSWORD });
    const secrets: string[] = [PASSWORD, WRONG, NEW_ADMIN_PASSWORD];

    const bad = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { Identity: boss.username, Password: WRONG },
    });
    expect(bad.statusCode).toBe(401);
    const good = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { Identity: boss.username, Password: PASSWORD },
    });
    expect(good.statusCode).toBe(200);
    const token = good.json().accessToken as string;
    secrets.push(token, hashToken(token));
    const headers = { authorization: `Bearer ${token}` };

    // A new admin, with a password, listed back.
    const created = await app.inject({
      method: 'POST',
      url: '/api/user',
      headers,
      payload: {
        Username: 'newclerk',
        Email: 'newclerk@example.test',
        RoleID: 3,
        Manages: town.id,
        Password: NEW_ADMIN_PASSWORD,
      },
    });
    expect(created.statusCode).toBe(201);
    const listed = await app.inject({ url: `/api/users/${town.id}`, headers });
    expect(listed.statusCode).toBe(200);
    for (const res of [good, created, listed])
      expect(res.body).not.toMatch(/scrypt\$|password|totp_?secret|hash/i);

    // Two-factor enrolment, then a sign-in with a code and one with a recovery code.
    const start = await app.inject({ method: 'POST', url: '/api/two-factor/start', headers });
    const secret = start.json().Secret as string;
    secrets.push(secret);
    const confirm = await app.inject({
      method: 'POST',
      url: '/api/two-factor/confirm',
      headers,
      payload: { Code: totp(secret, Date.now()) },
    });
    const codes = confirm.json().RecoveryCodes as string[];
    secrets.push(...codes);
    const withCode = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { Identity: boss.username, Password: PASSWORD, Code: totp(secret, Date.now() + 30_000) },
    });
    expect(withCode.statusCode).toBe(200);
    secrets.push(withCode.json().accessToken);
    const withRecovery = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { Identity: boss.username, Password: PASSWORD, Code: codes[0] },
    });
    expect(withRecovery.statusCode).toBe(200);
    secrets.push(withRecovery.json().accessToken);
    // Nor does the status answer carry the secret.
    const status = await app.inject({ url: '/api/two-factor', headers });
    expect(status.body).not.toContain(secret);

    await app.inject({ method: 'POST', url: '/api/logout', headers });

    const text = log.join('');
    expect(log.length).toBeGreaterThan(10); // the log was really written
    expect(text).toContain('"url":"/api/login"');
    for (const s of secrets) expect(text.includes(s), `log holds ${s.slice(0, 6)}…`).toBe(false);
    expect(text).not.toMatch(/scrypt\$/);
  });

  it('a database failure is logged with its cause but answered with a generic 500', async () => {
    log.length = 0;
    const town = await buildClient(db);
    await db.execute(sql`alter table contacts rename to contacts_gone`);
    try {
      const res = await app.inject({ url: `/api/contacts/${town.id}` });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        statusCode: 500,
        code: 'internal_error',
        message: 'Something went wrong on our side',
        error: 'Something went wrong on our side',
      });
      expect(res.body).not.toMatch(/contacts|select|relation|at \/|node_modules/i);
      // The operator still learns why, keyed by the request id.
      expect(log.join('')).toMatch(/relation \\?"contacts\\?" does not exist/);
    } finally {
      await db.execute(sql`alter table contacts_gone rename to contacts`);
    }
  });
});
