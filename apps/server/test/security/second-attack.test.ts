import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
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

describe('old town names (issue 46)', () => {
  /** As if the town had held its current name for two days. */
  const heldLong = (id: number) =>
    ctx.db.execute(sql`update clients set city_since = now() - interval '2 days' where id = ${id}`);
  const lookup = async (city: string) =>
    (await inject('GET', `/api/client/Maine/${encodeURIComponent(city)}`, {})).json().ClientID as number;

  it('releases a name a town held only briefly, so renaming back and forth squats nothing', async () => {
    const squatter = await buildClient(ctx.db, { city: 'Squatfield' });
    const admin = await adminOf(squatter.id);
    expect((await rename(squatter.id, 'Sebago', admin)).statusCode).toBe(200);
    expect((await rename(squatter.id, 'Squatfield', admin)).statusCode).toBe(200);
    // The real Sebago can have its name.
    const sebago = await buildClient(ctx.db, { city: 'Sebago Lake' });
    const res = await rename(sebago.id, 'Sebago', await adminOf(sebago.id));
    expect(res.statusCode, res.body).toBe(200);
    expect(await lookup('Sebago')).toBe(sebago.id);
  });

  it('keeps a town’s created name and names it held a day, its latest three, for its old links', async () => {
    const town = await buildClient(ctx.db, { city: 'Harbourtown' });
    const admin = await adminOf(town.id);
    const other = await buildClient(ctx.db, { city: 'Otherplace' });
    const otherAdmin = await adminOf(other.id);
    for (const City of ['Lakeview', 'Pinetree', 'Riverside']) {
      expect((await rename(town.id, City, admin)).statusCode).toBe(200);
      await heldLong(town.id);
    }
    // Harbourtown (created with), Lakeview and Pinetree (held a day) lead home, and are taken.
    for (const old of ['Harbourtown', 'Lakeview', 'Pinetree']) {
      expect(await lookup(old), old).toBe(town.id);
      expect((await rename(other.id, old, otherAdmin)).statusCode, old).toBe(409);
    }
    // A fourth old name releases the oldest.
    expect((await rename(town.id, 'Stonewall', admin)).statusCode).toBe(200);
    expect((await rename(other.id, 'Harbourtown', otherAdmin)).statusCode).toBe(200);
    expect(await lookup('Harbourtown')).toBe(other.id);
    for (const old of ['Lakeview', 'Pinetree', 'Riverside']) expect(await lookup(old), old).toBe(town.id);
  });
});

describe('accounts (issue 46)', () => {
  it('changing one’s own username needs the current password', async () => {
    const password = 'the current password';
    const user = await buildUser(ctx.db, { roleId: 1, password, username: 'renamer46' });
    const h = await authHeader(ctx.app, user.id);
    const url = `/api/user/${user.id}`;
    const body = { Username: 'thief46', Email: 'renamer46@example.test' };
    for (const extra of [{}, { CurrentPassword: 'not the password' }]) {
      const res = await inject('PUT', url, h, { ...body, ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().fields[0].field).toBe('CurrentPassword');
    }
    expect(((await inject('GET', url, h)).json() as { Username: string }).Username).toBe('renamer46');
    const ok = await inject('PUT', url, h, { ...body, CurrentPassword: password });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().Username).toBe('thief46');
    // Another provider administrator renaming them needs no password of theirs.
    const back = await inject('PUT', url, provider, { ...body, Username: 'renamer46' });
    expect(back.statusCode, back.body).toBe(200);
  });
});
