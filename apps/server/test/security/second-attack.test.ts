import { beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../helpers.ts';
import { authHeader, buildClient, buildUser } from '../factories.ts';

/*
 * Issue 46, the second outside attack: its findings on accounts and town names, replayed against the
 * real server (app.inject, real database). docs/SECURITY.md names each test here.
 */

const ctx = setupTestApp();

type Headers = Record<string, string>;
let provider: Headers;

beforeAll(async () => {
  provider = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 1 })).id);
});

const inject = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: Headers, payload?: object) =>
  ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

const rename = (id: number, City: string, h: Headers) =>
  inject('PATCH', `/api/client/${id}`, h, { City, Description: `Town of ${City}` });

async function adminOf(clientId: number) {
  return authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 2, manages: clientId })).id);
}

describe('town names (issue 46)', () => {
  it('refuses a look-alike capital of another town’s name (Cyrillic В, Greek Β in Bridgton)', async () => {
    await buildClient(ctx.db, { city: 'Bridgton' });
    const other = await buildClient(ctx.db, { city: 'Denmark' });
    const admin = await adminOf(other.id);
    for (const City of ['\u0412ridgton', '\u0392ridgton', 'BRIDGT\u039fN', 'bridgton'.toUpperCase()]) {
      const res = await rename(other.id, City, admin);
      expect(res.statusCode, City).toBe(409);
      expect(res.json().message).toBe(`The name ${City} is not available in Maine; choose another.`);
    }
    // Nor as a new town of the provider console.
    const created = await inject('POST', '/api/client', provider, {
      City: '\u0392ridgton',
      Country: 'United States',
      StateProvince: 'Maine',
    });
    expect(created.statusCode).toBe(409);
    // A name that only shares letters is free.
    expect((await rename(other.id, 'Bridgewater', admin)).statusCode).toBe(200);
  });
});
