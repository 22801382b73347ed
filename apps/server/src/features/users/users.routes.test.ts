import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/database.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { authHeader, buildClient, buildUser } from '../../../test/factories.ts';

const ctx = setupTestApp();

type Headers = Record<string, string>;
interface World {
  town: number;
  other: number;
  provider: { id: number; h: Headers };
  sup: { id: number; h: Headers };
  site: { id: number; h: Headers };
  lower: { id: number; h: Headers };
  otherSup: { id: number; h: Headers };
}
let w: World;
let n = 0;

async function account(roleId: 1 | 2 | 3 | 4, manages: number | null) {
  const u = await buildUser(ctx.db, { roleId, manages });
  return { id: u.id, h: await authHeader(ctx.app, u.id) };
}

beforeAll(async () => {
  const town = (await buildClient(ctx.db)).id;
  const other = (await buildClient(ctx.db)).id;
  w = {
    town,
    other,
    provider: await account(1, null),
    sup: await account(2, town),
    site: await account(3, town),
    lower: await account(4, town),
    otherSup: await account(2, other),
  };
});

const body = (over: Record<string, unknown> = {}) => {
  n++;
  return { Username: `admin${n}`, Email: `admin${n}@town.example`, Password: 'twelve chars!', ...over };
};
const inject = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers: Headers = {},
  payload?: object,
) => ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const userRow = async (id: number) =>
  (
    await queryRows<{ username: string; role_id: number; manages: number | null }>(
      ctx.db,
      sql`select username, role_id, manages from users where id = ${id}`,
    )
  )[0];

describe('GET /api/users/{clientId}', () => {
  it('401 anonymous, 403 site admin / lower role / other town, 400 bad id, 404 no client, 200 sorted list', async () => {
    expect((await inject('GET', `/api/users/${w.town}`)).statusCode).toBe(401);
    expect((await inject('GET', `/api/users/${w.town}`, w.site.h)).statusCode).toBe(403);
    expect((await inject('GET', `/api/users/${w.town}`, w.lower.h)).statusCode).toBe(403);
    expect((await inject('GET', `/api/users/${w.town}`, w.otherSup.h)).statusCode).toBe(403);
    expect((await inject('GET', '/api/users/0', w.sup.h)).statusCode).toBe(400);
    expect((await inject('GET', '/api/users/999999', w.provider.h)).statusCode).toBe(404);

    const res = await inject('GET', `/api/users/${w.town}`, w.sup.h);
    expect(res.statusCode).toBe(200);
    const list = res.json() as Array<{ UserId: number; Username: string; Manages: number }>;
    expect(list.map((u) => u.UserId).sort()).toEqual([w.sup.id, w.site.id, w.lower.id].sort());
    expect(list.map((u) => u.Username)).toEqual([...list.map((u) => u.Username)].sort());
    expect(JSON.stringify(list)).not.toMatch(/scrypt|Password/);
    expect((await inject('GET', `/api/users/${w.town}`, w.provider.h)).statusCode).toBe(200);
  });
});

describe('GET /api/users/role/1', () => {
  it('lists provider admins to provider admins only', async () => {
    expect((await inject('GET', '/api/users/role/1')).statusCode).toBe(401);
    expect((await inject('GET', '/api/users/role/1', w.sup.h)).statusCode).toBe(403);
    expect((await inject('GET', '/api/users/role/7', w.provider.h)).statusCode).toBe(400);
    const res = await inject('GET', '/api/users/role/1', w.provider.h);
    expect(res.statusCode).toBe(200);
    const list = res.json() as Array<{ RoleID: number; UserId: number }>;
    expect(list.every((u) => u.RoleID === 1)).toBe(true);
    expect(list.map((u) => u.UserId)).toContain(w.provider.id);
  });
});

describe('POST /api/user', () => {
  it('401 anonymous; 403 for a site admin, a lower role and another town’s super admin; nothing is created', async () => {
    expect((await inject('POST', '/api/user', {}, body({ Manages: w.town }))).statusCode).toBe(401);
    for (const who of [w.site, w.lower, w.otherSup]) {
      const payload = body({ Manages: w.town });
      const res = await inject('POST', '/api/user', who.h, payload);
      expect(res.statusCode).toBe(403);
      const rows = await queryRows(ctx.db, sql`select 1 from users where username = ${payload.Username}`);
      expect(rows).toHaveLength(0);
    }
  });

  it('a super admin creates a site admin of their town by default (RoleID 3, Manages = own client)', async () => {
    const payload = body();
    const res = await inject('POST', '/api/user', w.sup.h, payload);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ Username: payload.Username, RoleID: 3, Manages: w.town });
    // The new admin can sign in with the password given.
    const login = await inject(
      'POST',
      '/api/login',
      {},
      { Identity: payload.Email, Password: payload.Password },
    );
    expect(login.statusCode).toBe(200);
  });

  it('role rules: no higher role than your own, no other town, no provider admins from a town', async () => {
    expect((await inject('POST', '/api/user', w.sup.h, body({ RoleID: 2 }))).statusCode).toBe(201);
    expect((await inject('POST', '/api/user', w.sup.h, body({ RoleID: 4 }))).statusCode).toBe(201);
    const up = await inject('POST', '/api/user', w.sup.h, body({ RoleID: 1, Manages: null }));
    expect(up.statusCode).toBe(403);
    const elsewhere = await inject('POST', '/api/user', w.sup.h, body({ Manages: w.other }));
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toMatch(/own municipality/);
  });

  it('a provider admin creates provider admins (Manages empty) and admins of any town', async () => {
    const p = await inject('POST', '/api/user', w.provider.h, body({ RoleID: 1 }));
    expect(p.statusCode).toBe(201);
    expect(p.json()).toMatchObject({ RoleID: 1, Manages: null });
    const t = await inject('POST', '/api/user', w.provider.h, body({ RoleID: 2, Manages: w.other }));
    expect(t.json()).toMatchObject({ RoleID: 2, Manages: w.other });
    const bad = await inject('POST', '/api/user', w.provider.h, body({ RoleID: 1, Manages: w.town }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('Manages');
    const none = await inject('POST', '/api/user', w.provider.h, body({ RoleID: 3 }));
    expect(none.statusCode).toBe(400);
    expect(none.json().fields[0].field).toBe('Manages');
    const ghost = await inject('POST', '/api/user', w.provider.h, body({ Manages: 999999 }));
    expect(ghost.statusCode).toBe(400);
  });

  it('400 with the field named: short password, missing password, bad email, bad username', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ Password: 'short' }, 'Password', /at least 12/],
      [{ Password: '' }, 'Password', /required/],
      [{ Email: 'not-an-email' }, 'Email', /valid email/],
      [{ Username: 'a b' }, 'Username', /letters, digits/],
    ];
    for (const [over, field, message] of cases) {
      const res = await inject('POST', '/api/user', w.sup.h, body(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().fields[0]).toMatchObject({ field });
      expect(res.json().message).toMatch(message);
    }
  });

  it('409 for a username or email already taken (case-insensitively), without saying which (issue 37)', async () => {
    const first = body();
    await inject('POST', '/api/user', w.sup.h, first);
    const sameName = await inject(
      'POST',
      '/api/user',
      w.sup.h,
      body({ Username: first.Username.toUpperCase() }),
    );
    expect(sameName.statusCode).toBe(409);
    const sameEmail = await inject('POST', '/api/user', w.sup.h, body({ Email: first.Email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(409);
    // The two answers are the same: a Super Administrator cannot tell whose account exists.
    expect(sameName.json()).toEqual(sameEmail.json());
    expect(sameName.json().message).not.toMatch(/username is|email address is/i);
    // The same on a change of an existing admin to another's name or address.
    const other = (await inject('POST', '/api/user', w.sup.h, body())).json() as { UserId: number };
    for (const over of [{ Username: first.Username }, { Email: first.Email }]) {
      const res = await inject('PUT', `/api/user/${other.UserId}`, w.sup.h, body(over));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(sameName.json());
    }
  });
});

describe('PUT /api/user/{id}', () => {
  it('401, 403 (site admin, other town, own row, provider account), 400, 404, then 200', async () => {
    const target = (await inject('POST', '/api/user', w.sup.h, body())).json() as {
      UserId: number;
      Username: string;
      Email: string;
    };
    const url = `/api/user/${target.UserId}`;
    const payload = { Username: target.Username, Email: target.Email, RoleID: 2 };
    expect((await inject('PUT', url, {}, payload)).statusCode).toBe(401);
    expect((await inject('PUT', url, w.site.h, payload)).statusCode).toBe(403);
    expect((await inject('PUT', url, w.otherSup.h, payload)).statusCode).toBe(403);
    expect((await inject('PUT', `/api/user/${w.provider.id}`, w.sup.h, payload)).statusCode).toBe(403);
    const own = await userRow(w.sup.id);
    const self = await inject('PUT', `/api/user/${w.sup.id}`, w.sup.h, {
      Username: own!.username,
      Email: `${own!.username}@example.test`,
    });
    expect(self.statusCode).toBe(403);
    expect((await inject('PUT', url, w.sup.h, { ...payload, Email: 'nope' })).statusCode).toBe(400);
    expect((await inject('PUT', url, w.sup.h, { ...payload, UserId: target.UserId + 1 })).statusCode).toBe(
      400,
    );
    expect((await inject('PUT', '/api/user/999999', w.sup.h, payload)).statusCode).toBe(404);
    expect((await userRow(target.UserId))!.role_id).toBe(3);

    const ok = await inject('PUT', url, w.sup.h, payload);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ RoleID: 2, Manages: w.town });
  });

  it('role checkboxes map to roles the server keeps: 3 → 4 (both unticked) and back to 3', async () => {
    const t = (await inject('POST', '/api/user', w.sup.h, body())).json() as {
      UserId: number;
      Username: string;
      Email: string;
    };
    const put = (RoleID: number) =>
      inject('PUT', `/api/user/${t.UserId}`, w.sup.h, { Username: t.Username, Email: t.Email, RoleID });
    expect((await put(4)).json()).toMatchObject({ RoleID: 4 });
    expect((await put(3)).json()).toMatchObject({ RoleID: 3 });
  });

  it('a super admin cannot move an admin to another town; a provider admin can', async () => {
    const t = (await inject('POST', '/api/user', w.sup.h, body())).json() as {
      UserId: number;
      Username: string;
      Email: string;
    };
    const move = { Username: t.Username, Email: t.Email, Manages: w.other };
    expect((await inject('PUT', `/api/user/${t.UserId}`, w.sup.h, move)).statusCode).toBe(403);
    expect((await userRow(t.UserId))!.manages).toBe(w.town);
    expect((await inject('PUT', `/api/user/${t.UserId}`, w.provider.h, move)).json()).toMatchObject({
      Manages: w.other,
    });
  });

  it('a provider admin edits their own name (with their password) but not their own role', async () => {
    const u = await buildUser(ctx.db, { roleId: 1, password: 'my own password' });
    const me = { id: u.id, h: await authHeader(ctx.app, u.id) };
    const row = await userRow(me.id);
    const email = `${row!.username}@example.test`;
    const demote = await inject('PUT', `/api/user/${me.id}`, me.h, {
      Username: row!.username,
      Email: email,
      RoleID: 2,
      Manages: w.town,
    });
    expect(demote.statusCode).toBe(403);
    const rename = await inject('PUT', `/api/user/${me.id}`, me.h, {
      Username: `${row!.username}z`,
      Email: email,
      CurrentPassword: 'my own password',
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json()).toMatchObject({ Username: `${row!.username}z`, RoleID: 1 });
  });

  it('409 when renaming onto a taken username', async () => {
    const a = (await inject('POST', '/api/user', w.sup.h, body())).json() as {
      UserId: number;
      Username: string;
      Email: string;
    };
    const b = (await inject('POST', '/api/user', w.sup.h, body())).json() as {
      UserId: number;
      Username: string;
      Email: string;
    };
    const res = await inject('PUT', `/api/user/${b.UserId}`, w.sup.h, {
      Username: a.Username,
      Email: b.Email,
    });
    expect(res.statusCode).toBe(409);
  });
});

describe('DELETE /api/user/{id}', () => {
  it('401, 403 (site admin, other town, yourself), 404, then 200 and the account is gone', async () => {
    const t = (await inject('POST', '/api/user', w.sup.h, body())).json() as { UserId: number };
    const url = `/api/user/${t.UserId}`;
    expect((await inject('DELETE', url)).statusCode).toBe(401);
    expect((await inject('DELETE', url, w.site.h)).statusCode).toBe(403);
    expect((await inject('DELETE', url, w.otherSup.h)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/user/${w.sup.id}`, w.sup.h)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/user/${w.provider.id}`, w.provider.h)).statusCode).toBe(403);
    expect((await inject('DELETE', '/api/user/999999', w.sup.h)).statusCode).toBe(404);
    expect(await userRow(t.UserId)).toBeDefined();
    expect((await inject('DELETE', url, w.sup.h)).statusCode).toBe(200);
    expect(await userRow(t.UserId)).toBeUndefined();
    expect((await inject('DELETE', url, w.sup.h)).statusCode).toBe(404);
  });

  it('a super admin cannot delete a provider admin; a provider admin can delete another', async () => {
    const p = await account(1, null);
    expect((await inject('DELETE', `/api/user/${p.id}`, w.sup.h)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/user/${p.id}`, w.provider.h)).statusCode).toBe(200);
  });
});

describe('audit log', () => {
  it('records who created, changed and deleted an admin, without the password', async () => {
    const payload = body();
    const created = (await inject('POST', '/api/user', w.sup.h, payload)).json() as { UserId: number };
    await inject('PUT', `/api/user/${created.UserId}`, w.sup.h, {
      ...payload,
      Password: 'another secret pw',
    });
    await inject('DELETE', `/api/user/${created.UserId}`, w.sup.h);
    const rows = await queryRows<{
      action: string;
      actor_user_id: number;
      client_id: number;
      after: unknown;
    }>(
      ctx.db,
      sql`select action, actor_user_id, client_id, after from audit_log
          where entity = 'user' and entity_id = ${String(created.UserId)} order by id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['user.create', 'user.update', 'user.delete']);
    expect(rows.every((r) => r.actor_user_id === w.sup.id && r.client_id === w.town)).toBe(true);
    expect(rows[1]!.after).toMatchObject({ CredentialsChanged: true });
    expect(JSON.stringify(rows)).not.toMatch(/twelve chars|another secret|scrypt/);
  });
});
