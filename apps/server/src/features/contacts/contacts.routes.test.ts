import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/database.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { authHeader, buildClient, buildUser } from '../../../test/factories.ts';

const ctx = setupTestApp();

type Headers = Record<string, string>;
let town: number;
let other: number;
let hidden: number;
const h: Record<'provider' | 'sup' | 'site' | 'lower' | 'otherSite', Headers> = {} as never;

beforeAll(async () => {
  town = (await buildClient(ctx.db)).id;
  other = (await buildClient(ctx.db)).id;
  hidden = (await buildClient(ctx.db, { isActive: false })).id;
  const mk = async (roleId: 1 | 2 | 3 | 4, manages: number | null) =>
    authHeader(ctx.app, (await buildUser(ctx.db, { roleId, manages })).id);
  h.provider = await mk(1, null);
  h.sup = await mk(2, town);
  h.site = await mk(3, town);
  h.lower = await mk(4, town);
  h.otherSite = await mk(3, other);
});

const contact = (over: Record<string, unknown> = {}) => ({
  ClientID: town,
  Title: 'Town Clerk',
  ContactUrl: 'www.testville.example.gov',
  HoursOfOperation: 'Mon-Fri 8-4',
  Telephone: '(207) 555-0100',
  ContactEmail: 'clerk@testville.example.gov',
  FreeFormMessage: 'Ask about dog licenses.',
  ...over,
});
const inject = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers: Headers = {},
  payload?: object,
) => ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const publicList = async (clientId: number) => (await inject('GET', `/api/contacts/${clientId}`)).json();

describe('contacts', () => {
  it('a site admin adds a contact the public then sees; the URL gets its scheme', async () => {
    const res = await inject('POST', '/api/contact', h.site, contact());
    expect(res.statusCode).toBe(201);
    const saved = res.json();
    expect(saved).toMatchObject({
      ClientID: town,
      Title: 'Town Clerk',
      ContactUrl: 'https://www.testville.example.gov/',
    });
    expect(await publicList(town)).toContainEqual(saved);
  });

  it('POST: 401 anonymous, 403 lower role / other town, 400 naming the field, 404 no client', async () => {
    expect((await inject('POST', '/api/contact', {}, contact())).statusCode).toBe(401);
    expect((await inject('POST', '/api/contact', h.lower, contact())).statusCode).toBe(403);
    expect((await inject('POST', '/api/contact', h.otherSite, contact())).statusCode).toBe(403);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ Title: '  ' }, 'Title'],
      [{ ContactEmail: 'clerk at town' }, 'ContactEmail'],
      [{ ContactUrl: 'javascript:alert(1)' }, 'ContactUrl'],
      [{ Telephone: 'call us!' }, 'Telephone'],
      [{ FreeFormMessage: 'x'.repeat(2001) }, 'FreeFormMessage'],
      [{ ClientID: 'one' }, 'ClientID'],
    ];
    for (const [over, field] of cases) {
      const res = await inject('POST', '/api/contact', h.site, contact(over));
      expect(res.statusCode, field).toBe(400);
      expect(res.json().fields[0].field).toBe(field);
    }
    expect((await inject('POST', '/api/contact', h.provider, contact({ ClientID: 999999 }))).statusCode).toBe(
      404,
    );
    expect(await publicList(town)).not.toContainEqual(expect.objectContaining({ Title: '  ' }));
  });

  it('PUT: 401, 403 other town, 400 moving it, 404, then 200 with the change public', async () => {
    const { ContactID } = (
      await inject('POST', '/api/contact', h.sup, contact({ Title: 'Assessor' }))
    ).json();
    const url = `/api/contact/${ContactID}`;
    const change = contact({ Title: 'Assessor’s Office', ContactEmail: '' });
    expect((await inject('PUT', url, {}, change)).statusCode).toBe(401);
    expect((await inject('PUT', url, h.otherSite, contact({ ClientID: other }))).statusCode).toBe(403);
    expect((await inject('PUT', url, h.provider, contact({ ClientID: other }))).statusCode).toBe(400);
    expect((await inject('PUT', '/api/contact/999999', h.site, change)).statusCode).toBe(404);
    const ok = await inject('PUT', url, h.site, change);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ ContactID, Title: 'Assessor’s Office', ContactEmail: '' });
    expect(await publicList(town)).toContainEqual(ok.json());
  });

  it('DELETE: 401, 403 other town, 404, then 200 and it is gone', async () => {
    const { ContactID } = (await inject('POST', '/api/contact', h.sup, contact({ Title: 'Temp' }))).json();
    const url = `/api/contact/${ContactID}`;
    expect((await inject('DELETE', url)).statusCode).toBe(401);
    expect((await inject('DELETE', url, h.otherSite)).statusCode).toBe(403);
    expect((await inject('DELETE', url, h.lower)).statusCode).toBe(403);
    expect((await inject('DELETE', url, h.site)).statusCode).toBe(200);
    expect(await publicList(town)).not.toContainEqual(expect.objectContaining({ ContactID }));
    expect((await inject('DELETE', url, h.site)).statusCode).toBe(404);
  });

  it('GET: an inactive client’s contacts are hidden from the public but not from a provider admin', async () => {
    await inject('POST', '/api/contact', h.provider, contact({ ClientID: hidden }));
    expect((await inject('GET', `/api/contacts/${hidden}`)).statusCode).toBe(404);
    expect((await inject('GET', '/api/contacts/999999')).statusCode).toBe(404);
    expect((await inject('GET', '/api/contacts/abc')).statusCode).toBe(400);
    const admin = await inject('GET', `/api/contacts/${hidden}`, h.provider);
    expect(admin.statusCode).toBe(200);
    expect(admin.json()).toHaveLength(1);
  });
});

describe('audit log', () => {
  it('records each contact change with its before and after', async () => {
    const { ContactID } = (
      await inject('POST', '/api/contact', h.site, contact({ Title: 'Audited' }))
    ).json();
    await inject('PUT', `/api/contact/${ContactID}`, h.site, contact({ Title: 'Audited twice' }));
    await inject('DELETE', `/api/contact/${ContactID}`, h.site);
    const rows = await queryRows<{ action: string; client_id: number; before: { Title?: string } | null }>(
      ctx.db,
      sql`select action, client_id, before from audit_log
          where entity = 'contact' and entity_id = ${String(ContactID)} order by id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['contact.create', 'contact.update', 'contact.delete']);
    expect(rows[1]!.before?.Title).toBe('Audited');
    expect(rows[2]!.before?.Title).toBe('Audited twice');
    expect(rows.every((r) => r.client_id === town)).toBe(true);
  });
});
