import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/database.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { abandonedRoll, buildClient, publishRoll } from '../../../test/factories.ts';
import { usersRepository } from '../users/users.repository.ts';
import { rollsRepository } from '../rolls/rolls.repository.ts';
import { tryImportLock } from '../rolls/import-lock.ts';

const ctx = setupTestApp();

let seq = 0;
/** A user of the given role with a live session; returns the Authorization header to send. */
async function signIn(roleId: 1 | 2 | 3 | 4, manages: number | null = null) {
  seq++;
  const user = await usersRepository.insert(ctx.db, {
    username: `user${seq}_${roleId}`,
    email: `user${seq}_${roleId}@example.test`,
    roleId,
    manages,
    passwordHash: 'not-a-real-hash',
  });
  const token = await ctx.app.sessions.create(user.id, { ip: null, userAgent: null });
  return { user, headers: { authorization: `Bearer ${token}` } };
}

/** Roles 2, 3 and 4, each tied to a client of their own (the closest a non-provider gets). */
async function nonProviders() {
  const own = await buildClient(ctx.db);
  return Promise.all([signIn(2, own.id), signIn(3, own.id), signIn(4, own.id)]);
}

const validClient = (over: Record<string, unknown> = {}) => ({
  City: `Newtown ${++seq}`,
  Country: 'United States',
  StateProvince: 'Maine',
  ...over,
});

const rec = (account: string) => ({
  Account: account,
  StreetNumber: '1',
  StreetName: 'Main St',
  Owners: [{ OwnerName: `OWNER ${account}` }],
});

describe('GET /api/clients', () => {
  it('401 without a session, 403 for roles 2, 3 and 4', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/clients' })).statusCode).toBe(401);
    const expired = await ctx.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { authorization: 'Bearer not-a-live-session-token-000000' },
    });
    expect(expired.statusCode).toBe(401);
    for (const u of await nonProviders()) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/clients', headers: u.headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
    }
  });

  it('lists every client, inactive ones too, sorted by City, with parcel counts and no internal columns', async () => {
    const provider = await signIn(1);
    const zed = await buildClient(ctx.db, { city: 'Zzyzx Falls', isActive: false });
    const abb = await buildClient(ctx.db, { city: 'Aardvark', stateProvince: 'Vermont' });
    await publishRoll(ctx.db, abb.id, [rec('1'), rec('2')]);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/clients/', headers: provider.headers });
    expect(res.statusCode).toBe(200);
    const list = res.json() as Array<Record<string, unknown>>;
    const cities = list.map((c) => String(c.City));
    expect(cities).toEqual([...cities].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(list.find((c) => c.ClientID === zed.id)).toMatchObject({ City: 'Zzyzx Falls', IsActive: false });
    const a = list.find((c) => c.ClientID === abb.id)!;
    expect(a).toMatchObject({ City: 'Aardvark', StateProvince: 'Vermont', ParcelCount: 2 });
    expect(typeof a.LastUpdated).toBe('string');
    expect(a).not.toHaveProperty('activeRollId');
    expect(a).not.toHaveProperty('active_roll_id');
  });
});

describe('POST /api/client', () => {
  it('401 without a session, 403 for roles 2, 3 and 4, and nothing is created', async () => {
    const body = validClient({ City: 'Forbiddenton' });
    expect((await ctx.app.inject({ method: 'POST', url: '/api/client', payload: body })).statusCode).toBe(
      401,
    );
    for (const u of await nonProviders()) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/client',
        payload: body,
        headers: u.headers,
      });
      expect(res.statusCode).toBe(403);
    }
    const rows = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from clients where city = 'Forbiddenton'`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('names each missing required field with the spec messages', async () => {
    const provider = await signIn(1);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/client',
      headers: provider.headers,
      payload: { City: '  ', Country: '', StateProvince: '' },
    });
    expect(res.statusCode).toBe(400);
    const fields = (res.json() as { fields: Array<{ field: string; message: string }> }).fields;
    expect(fields).toEqual(
      expect.arrayContaining([
        { field: 'City', message: 'Client Name is required.' },
        { field: 'Country', message: 'Country is required.' },
        { field: 'StateProvince', message: 'State/Province is required.' },
      ]),
    );
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/client',
      headers: provider.headers,
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
  });

  it('refuses a state outside the table, a bad payment link and wrong types, naming the field', async () => {
    const provider = await signIn(1);
    const post = (payload: Record<string, unknown>) =>
      ctx.app.inject({ method: 'POST', url: '/api/client', headers: provider.headers, payload });

    const state = await post(validClient({ StateProvince: 'Ontario' }));
    expect(state.statusCode).toBe(400);
    expect(state.json()).toMatchObject({ fields: [{ field: 'StateProvince' }] });
    expect(state.json().message).toMatch(/50 US states/);

    const link = await post(validClient({ AllowPaymentLink: true, PaymentLink: 'not a link' }));
    expect(link.statusCode).toBe(400);
    expect(link.json()).toMatchObject({
      fields: [{ field: 'PaymentLink', message: 'Payment Link must be a valid web address.' }],
    });

    const js = await post(validClient({ AllowPaymentLink: true, PaymentLink: 'javascript:alert(1)' }));
    expect(js.statusCode).toBe(400);

    const type = await post(validClient({ IsActive: 'yes' }));
    expect(type.statusCode).toBe(400);
    expect(type.json().fields[0].field).toBe('IsActive');

    const nul = await post(validClient({ City: 'Bad\u0000Town' }));
    expect(nul.statusCode).toBe(400);
  });

  it('creates with the §4 defaults, stores the canonical state name, and refuses the same city twice', async () => {
    const provider = await signIn(1);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/client',
      headers: provider.headers,
      payload: { City: ' Castle   Rock ', Country: 'United States', StateProvince: 'me' },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      City: 'Castle Rock',
      StateProvince: 'Maine',
      Country: 'United States',
      Description: 'Town of Castle Rock',
      IsActive: true,
      IsProduction: false,
      AllowsImage: true,
      PictureLevel: 'Per Property',
      AllowPaymentLink: true,
      PaymentLink: '',
      ParcelCount: 0,
      LastUpdated: null,
      BannerImage: null,
    });
    expect(created.ClientID).toBeGreaterThan(0);
    const audit = await queryRows<{ action: string; actor_username: string }>(
      ctx.db,
      sql`select action, actor_username from audit_log where client_id = ${created.ClientID}`,
    );
    expect(audit).toEqual([{ action: 'client.create', actor_username: provider.user.username }]);

    const list = await ctx.app.inject({ method: 'GET', url: '/api/clients', headers: provider.headers });
    expect((list.json() as Array<{ ClientID: number }>).map((c) => c.ClientID)).toContain(created.ClientID);

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/client',
      headers: provider.headers,
      payload: { City: 'castle rock', Country: 'United States', StateProvince: 'Maine' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'conflict',
      message: 'The name castle rock is not available in Maine; choose another.',
      fields: [{ field: 'City' }],
    });

    // The same name in another state is a different town.
    const other = await ctx.app.inject({
      method: 'POST',
      url: '/api/client',
      headers: provider.headers,
      payload: { City: 'Castle Rock', Country: 'United States', StateProvince: 'Colorado' },
    });
    expect(other.statusCode).toBe(201);
  });

  it('keeps every field given, and stores a denied payment link empty', async () => {
    const provider = await signIn(1);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/client',
      headers: provider.headers,
      payload: validClient({
        City: 'Bayport',
        Description: 'City of Bayport',
        IsActive: false,
        IsProduction: true,
        AllowsImage: false,
        PictureLevel: '',
        AllowPaymentLink: false,
        PaymentLink: 'https://pay.example.gov',
      }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      City: 'Bayport',
      Description: 'City of Bayport',
      IsActive: false,
      IsProduction: true,
      AllowsImage: false,
      PictureLevel: '',
      AllowPaymentLink: false,
      PaymentLink: '',
    });
    const withLink = await ctx.app.inject({
      method: 'POST',
      url: '/api/client',
      headers: provider.headers,
      payload: validClient({ AllowPaymentLink: true, PaymentLink: 'pay.example.gov/tax?acct=' }),
    });
    expect(withLink.statusCode).toBe(201);
    expect(withLink.json().PaymentLink).toBe('https://pay.example.gov/tax?acct=');
  });
});

describe('DELETE /api/client/{id}', () => {
  it('401 without a session, 403 for roles 2, 3 and 4 (even their own client), 400 for a bad id, 404 for none', async () => {
    const target = await buildClient(ctx.db);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/client/${target.id}` })).statusCode).toBe(
      401,
    );
    for (const roleId of [2, 3, 4] as const) {
      const u = await signIn(roleId, target.id);
      const res = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/client/${target.id}`,
        headers: u.headers,
      });
      expect(res.statusCode).toBe(403);
    }
    const provider = await signIn(1);
    const bad = await ctx.app.inject({ method: 'DELETE', url: '/api/client/abc', headers: provider.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('id');
    const none = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/client/999999',
      headers: provider.headers,
    });
    expect(none.statusCode).toBe(404);
    const still = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from clients where id = ${target.id}`,
    );
    expect(still[0]!.n).toBe(1);
  });

  it("removes the client's properties, contacts, images and history, and its admins' access", async () => {
    const provider = await signIn(1);
    const doomed = await buildClient(ctx.db);
    const kept = await buildClient(ctx.db);
    const doomedRoll = await publishRoll(ctx.db, doomed.id, [rec('1'), rec('2'), rec('3')]);
    const keptRoll = await publishRoll(ctx.db, kept.id, [rec('1')]);
    const failed = await abandonedRoll(ctx.db, doomed.id);
    const rollTables = async () =>
      (
        await queryRows<{ relname: string }>(
          ctx.db,
          sql`select relname from pg_class where relname ~ '^propert(ies|y_records)_r[0-9]+$' order by relname`,
        )
      ).map((r) => r.relname);
    const tablesOf = (roll: number | null) => [`properties_r${roll}`, `property_records_r${roll}`];
    const doomedTables = [...tablesOf(doomedRoll.client.activeRollId), ...tablesOf(failed.id)];
    const tablesBefore = await rollTables();
    expect(tablesBefore).toEqual(
      expect.arrayContaining([...doomedTables, ...tablesOf(keptRoll.client.activeRollId)]),
    );
    await ctx.db.execute(
      sql`insert into contacts (client_id, title) values (${doomed.id}, 'Assessor'), (${kept.id}, 'Clerk')`,
    );
    await ctx.db.execute(
      sql`insert into stored_files (name, client_id, kind, content_type, byte_size, width, height, sha256, bytes)
          values (${`banner-${doomed.id}.png`}, ${doomed.id}, 'banner', 'image/png', 1, 1, 1, 'x', '\\x00'::bytea)`,
    );
    const admin = await signIn(2, doomed.id);
    const otherAdmin = await signIn(2, kept.id);
    const ownSession = await ctx.app.inject({ method: 'GET', url: '/api/clients', headers: admin.headers });
    expect(ownSession.statusCode).toBe(403); // signed in, just not a provider

    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/client/${doomed.id}`,
      headers: provider.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, deleted: { properties: 3, contacts: 1, images: 1, admins: 1 } });
    // The client's rolls are dropped with it (tables, records and the failed run's leftovers), not left
    // for a sweep; the other town's roll is untouched.
    expect(await rollTables()).toEqual(tablesBefore.filter((t) => !doomedTables.includes(t)));

    const left = await queryRows<Record<string, number>>(
      ctx.db,
      sql`select (select count(*)::int from clients where id = ${doomed.id}) as clients,
                 (select count(*)::int from properties where client_id = ${doomed.id}) as properties,
                 (select count(*)::int from contacts where client_id = ${doomed.id}) as contacts,
                 (select count(*)::int from stored_files where client_id = ${doomed.id}) as files,
                 (select count(*)::int from import_runs where client_id = ${doomed.id}) as runs,
                 (select count(*)::int from properties where client_id = ${kept.id}) as kept_properties,
                 (select count(*)::int from contacts where client_id = ${kept.id}) as kept_contacts`,
    );
    expect(left[0]).toEqual({
      clients: 0,
      properties: 0,
      contacts: 0,
      files: 0,
      runs: 0,
      kept_properties: 1,
      kept_contacts: 1,
    });

    // The admin's account stays but manages nothing, and their open session has ended.
    const after = await usersRepository.findById(ctx.db, admin.user.id);
    expect(after?.manages).toBeNull();
    const revoked = await ctx.app.inject({ method: 'GET', url: '/api/clients', headers: admin.headers });
    expect(revoked.statusCode).toBe(401);
    // Other towns' admins and the provider are untouched.
    expect((await usersRepository.findById(ctx.db, otherAdmin.user.id))?.manages).toBe(kept.id);
    const stillIn = await ctx.app.inject({ method: 'GET', url: '/api/clients', headers: provider.headers });
    expect(stillIn.statusCode).toBe(200);
    expect((stillIn.json() as Array<{ ClientID: number }>).map((c) => c.ClientID)).not.toContain(doomed.id);

    // Who deleted which client stays on record after the client is gone.
    const audit = await queryRows<{ action: string; actor_username: string }>(
      ctx.db,
      sql`select action, actor_username from audit_log where client_id = ${doomed.id} and action = 'client.delete'`,
    );
    expect(audit).toEqual([{ action: 'client.delete', actor_username: provider.user.username }]);

    const twice = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/client/${doomed.id}`,
      headers: provider.headers,
    });
    expect(twice.statusCode).toBe(404);
  });

  it('refuses while a roll import for the client is running, and changes nothing', async () => {
    const provider = await signIn(1);
    const busy = await buildClient(ctx.db);
    // A live import holds the client's import lock (PostgreSQL; on the embedded engine its run stands for it).
    const lock = (await tryImportLock(ctx.db, busy.id))!;
    const run = await rollsRepository.createRun(ctx.db, {
      clientId: busy.id,
      userId: null,
      actor: 'test',
      fileName: 'big.jsonl',
    });
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/client/${busy.id}`,
      headers: provider.headers,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/big\.jsonl/);
    expect(await rollsRepository.findRun(ctx.db, run.id)).not.toBeNull();
    await lock.release();
  });
});
