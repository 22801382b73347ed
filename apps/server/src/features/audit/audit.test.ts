import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { setupTestApp } from '../../../test/helpers.ts';
import { authHeader, buildClient, buildUser } from '../../../test/factories.ts';
import { auditService, redactForAudit } from './audit.service.ts';

const ctx = setupTestApp();

let townA: number;
let townB: number;
let headers: Record<'provider' | 'superA' | 'siteA' | 'lower' | 'superB', Record<string, string>>;

beforeAll(async () => {
  townA = (await buildClient(ctx.db)).id;
  townB = (await buildClient(ctx.db)).id;
  const provider = await buildUser(ctx.db, { roleId: 1, username: 'prov' });
  const superA = await buildUser(ctx.db, { roleId: 2, manages: townA, username: 'alice' });
  const siteA = await buildUser(ctx.db, { roleId: 3, manages: townA });
  const lower = await buildUser(ctx.db, { roleId: 4, manages: townA });
  const superB = await buildUser(ctx.db, { roleId: 2, manages: townB, username: 'bob' });
  headers = {
    provider: await authHeader(ctx.app, provider.id),
    superA: await authHeader(ctx.app, superA.id),
    siteA: await authHeader(ctx.app, siteA.id),
    lower: await authHeader(ctx.app, lower.id),
    superB: await authHeader(ctx.app, superB.id),
  };
  const rec = (username: string, clientId: number | null, action: string, entityId: number) =>
    auditService.record(ctx.db, {
      actor: { id: null, username },
      ip: '192.0.2.1',
      clientId,
      action,
      entity: action.split('.')[0]!,
      entityId,
      before: { Title: 'old' },
      after: { Title: 'new' },
    });
  await rec('alice', townA, 'contact.create', 1);
  await rec('alice', townA, 'contact.update', 1);
  await rec('prov', townA, 'user.create', 7);
  await rec('bob', townB, 'contact.delete', 2);
  await rec('prov', null, 'client.create', townB);
});

const list = (who: keyof typeof headers, query = '') =>
  ctx.app.inject({ url: `/api/audit${query}`, headers: headers[who] });

describe('GET /api/audit', () => {
  it('is closed to the anonymous (401), Site Administrators and role 4 (403)', async () => {
    expect((await ctx.app.inject({ url: '/api/audit' })).statusCode).toBe(401);
    expect((await list('siteA')).statusCode).toBe(403);
    expect((await list('lower')).statusCode).toBe(403);
  });

  it("shows a Super Administrator their own town only, never another town's", async () => {
    const res = await list('superA');
    expect(res.statusCode).toBe(200);
    const entries = res.json().Entries as { ClientID: number; Action: string }[];
    expect(entries.map((e) => e.Action)).toEqual(['user.create', 'contact.update', 'contact.create']);
    expect(entries.every((e) => e.ClientID === townA)).toBe(true);
    expect((await list('superA', `?ClientID=${townB}`)).statusCode).toBe(403);
    expect((await list('superB')).json().Entries.map((e: { Action: string }) => e.Action)).toEqual([
      'contact.delete',
    ]);
  });

  it('shows a provider admin every town, newest first, with filters and paging', async () => {
    const all = (await list('provider')).json();
    expect(all.TotalRecords).toBe(5);
    expect(all.Entries[0]).toMatchObject({
      Action: 'client.create',
      ActorUsername: 'prov',
      Ip: '192.0.2.1',
      Before: { Title: 'old' },
      After: { Title: 'new' },
    });
    expect((await list('provider', `?ClientID=${townB}`)).json().TotalRecords).toBe(1);
    expect((await list('provider', '?Actor=ALICE')).json().TotalRecords).toBe(2);
    expect((await list('provider', '?Action=contact.*')).json().TotalRecords).toBe(3);
    expect((await list('provider', '?Action=contact.update')).json().TotalRecords).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list('provider', `?From=${today}&To=${today}`)).json().TotalRecords).toBe(5);
    expect((await list('provider', '?To=2000-01-01')).json().TotalRecords).toBe(0);
    const page2 = (await list('provider', '?pagesize=2&page=2')).json();
    expect(page2).toMatchObject({ PageNumber: 2, PageSize: 2, Pages: 3, TotalRecords: 5 });
    expect(page2.Entries.map((e: { Action: string }) => e.Action)).toEqual(['user.create', 'contact.update']);
  });

  it('treats LIKE metacharacters in an action prefix literally', async () => {
    expect((await list('provider', '?Action=%25*')).statusCode).toBe(400);
    expect((await list('provider', '?Action=contact_*')).json().TotalRecords).toBe(0);
  });

  it('rejects bad filters with 400 naming the field', async () => {
    for (const [q, field] of [
      ['?page=1e309', 'page'],
      ['?page=0', 'page'],
      ['?pagesize=500', 'pagesize'],
      ['?From=2024-13-45', 'From'],
      ['?ClientID=Infinity', 'ClientID'],
      ['?Actor=a%00b', 'Actor'],
    ] as const) {
      const res = await list('provider', q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().fields[0].field, q).toBe(field);
    }
  });
});

describe('the audit log itself', () => {
  it('is append-only: the database refuses updates and deletes', async () => {
    const refusal = async (q: Promise<unknown>) => {
      const err = (await q.then(
        () => null,
        (e: unknown) => e,
      )) as (Error & { cause?: Error }) | null;
      return `${err?.message} ${err?.cause?.message}`;
    };
    expect(await refusal(ctx.db.execute(sql`update audit_log set action = 'x'`))).toMatch(/append-only/);
    expect(await refusal(ctx.db.execute(sql`delete from audit_log`))).toMatch(/append-only/);
    expect(await refusal(ctx.db.execute(sql`truncate audit_log`))).toMatch(/append-only/);
    expect((await list('provider')).json().TotalRecords).toBe(5);
  });

  it('never stores secrets, whatever the caller passes', () => {
    const out = redactForAudit({
      Username: 'a',
      Password: 'hunter2 hunter2',
      passwordHash: 'scrypt$…',
      nested: { totpSecret: 'ABC', accessToken: 'tok', list: [{ token: 'x' }] },
      bytes: Buffer.from('abc'),
      when: new Date('2030-01-01T00:00:00Z'),
    });
    expect(out).toEqual({
      Username: 'a',
      Password: '[redacted]',
      passwordHash: '[redacted]',
      nested: { totpSecret: '[redacted]', accessToken: '[redacted]', list: [{ token: '[redacted]' }] },
      bytes: '[redacted]',
      when: '2030-01-01T00:00:00.000Z',
    });
    expect(JSON.stringify(out)).not.toMatch(/hunter2|scrypt|ABC|tok\b/);
  });
});
