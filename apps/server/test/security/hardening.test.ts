import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImportRunDto } from '@opp/contracts';
import { totp } from '../../src/features/auth/two-factor.totp.ts';
import { setupTestApp } from '../helpers.ts';
import { authHeader, buildClient, buildUser } from '../factories.ts';

/*
 * Issue 37, "Hardening, second round": each attack the outside penetration test reproduced against main,
 * replayed against the real server (app.inject, real database). docs/SECURITY.md names each test here.
 */

const ctx = setupTestApp();

type Headers = Record<string, string>;
const PASSWORD = 'the current password';
let town: { id: number; city: string };
let provider: { id: number; h: Headers };
let sup: { id: number; h: Headers };
let seq = 0;

beforeAll(async () => {
  town = await buildClient(ctx.db, { city: 'Harrison', stateProvince: 'Maine' });
  const p = await buildUser(ctx.db, { roleId: 1, password: PASSWORD });
  provider = { id: p.id, h: await authHeader(ctx.app, p.id) };
  const s = await buildUser(ctx.db, { roleId: 2, manages: town.id });
  sup = { id: s.id, h: await authHeader(ctx.app, s.id) };
});

const inject = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  headers: Headers = {},
  payload?: object,
) => ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

const contact = (over: Record<string, unknown>) => ({ ClientID: town.id, Title: 'Town Clerk', ...over });

describe('stored links (issue 37)', () => {
  it('refuses a Home URL with a leading newline or tab that would be served as javascript:', async () => {
    for (const ContactUrl of [
      '\njavascript:alert(1)%2F%2F@x.com',
      '\tjavascript:alert(1)//x.com',
      'java\tscript:alert(1)',
      'https://town.gov@evil.example/',
    ]) {
      const res = await inject('POST', '/api/contact', sup.h, contact({ ContactUrl }));
      expect(res.statusCode, JSON.stringify(ContactUrl)).toBe(400);
      expect(res.json().fields[0].field).toBe('ContactUrl');
    }
    const served = await inject('GET', `/api/contacts/${town.id}`);
    expect(served.body).not.toMatch(/javascript/i);
  });

  it('stores exactly the normalised link it checked', async () => {
    const res = await inject('POST', '/api/contact', sup.h, contact({ ContactUrl: '  WWW.Town.GOV/clerk ' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().ContactUrl).toBe('https://www.town.gov/clerk');
  });

  it('refuses a Payment Link with a tab inside the scheme, and stores the normalised one', async () => {
    const bad = await inject('PATCH', `/api/client/${town.id}`, provider.h, {
      AllowPaymentLink: true,
      PaymentLink: 'java\tscript:alert(1)',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0]).toMatchObject({ field: 'PaymentLink' });
    const created = await inject('POST', '/api/client', provider.h, {
      City: 'Paymentville',
      Country: 'United States',
      StateProvince: 'Maine',
      AllowPaymentLink: true,
      PaymentLink: '\njavascript:alert(1)%2F%2F@x.com',
    });
    expect(created.statusCode).toBe(400);
    const good = await inject('PATCH', `/api/client/${town.id}`, provider.h, {
      AllowPaymentLink: true,
      PaymentLink: ' pay.town.gov/tax?acct= ',
    });
    expect(good.json().PaymentLink).toBe('https://pay.town.gov/tax?acct=');
  });

  it('checks a roll’s GISLink and Images at import: a hostile link refuses the roll', async () => {
    const roll = await buildClient(ctx.db, { city: 'Rollville' });
    const records = [
      { Account: '1', Owners: [{ OwnerName: 'A' }], GISLink: '\njavascript:alert(1)%2F%2F@x.com' },
      { Account: '2', Owners: [{ OwnerName: 'B' }], Images: ['//evil.example/a.jpg'] },
      { Account: '3', Owners: [{ OwnerName: 'C' }], Images: ['java\tscript:alert(1)'] },
    ];
    const run = await upload(roll.id, records);
    expect(run.Status).toBe('failed');
    const errors = run.Errors.join('\n');
    expect(errors).toMatch(/GISLink/);
    expect(errors).toMatch(/Images/);
    expect((await inject('GET', '/api/fullproperty/1?state=Maine&city=Rollville')).statusCode).toBe(404);

    // A good roll's links are stored in their normalised form and served as such.
    const ok = await upload(roll.id, [
      {
        Account: '1',
        Owners: [{ OwnerName: 'A' }],
        GISLink: 'maps.town.gov/?id=1',
        Images: ['/api/files/image/p1.jpg'],
      },
    ]);
    expect(ok.Status).toBe('succeeded');
    const served = (await inject('GET', '/api/fullproperty/1?state=Maine&city=Rollville')).json();
    expect(served).toMatchObject({
      GISLink: 'https://maps.town.gov/?id=1',
      Images: ['/api/files/image/p1.jpg'],
    });
  });

  it('ContactEmail accepts an address only, not extra mailto: recipients or a body', async () => {
    for (const ContactEmail of [
      'a@b.co?cc=x%40evil.com&body=hello',
      'a?cc=x@b.co',
      'a@b.co\nbcc:x@evil.com',
    ]) {
      const res = await inject('POST', '/api/contact', sup.h, contact({ ContactEmail }));
      expect(res.statusCode, ContactEmail).toBe(400);
      expect(res.json().fields[0].field).toBe('ContactEmail');
    }
  });
});

/** Uploads records as a JSONL roll through POST /api/rolls/{id} and waits for the run to finish. */
async function upload(clientId: number, records: object[]): Promise<ImportRunDto> {
  const boundary = `----opp${randomBytes(8).toString('hex')}`;
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="roll.jsonl"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n' +
      records.map((r) => JSON.stringify(r)).join('\n') +
      `\n\r\n--${boundary}--\r\n`,
  );
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/rolls/${clientId}`,
    payload,
    headers: { ...provider.h, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  expect(started.statusCode, started.body).toBe(202);
  const runId = (started.json() as ImportRunDto).RunID;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const run = (
      await inject('GET', `/api/rolls/${clientId}/runs/${runId}`, provider.h)
    ).json() as ImportRunDto;
    if (run.Status === 'succeeded' || run.Status === 'failed') return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.Status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('town names (issue 37)', () => {
  const rename = (id: number, City: string, h: Headers = provider.h) =>
    inject('PATCH', `/api/client/${id}`, h, { City, Description: `Town of ${City}` });

  it('refuses a look-alike of another town in the state (Cyrillic а in Hаrrison)', async () => {
    const other = await buildClient(ctx.db, { city: 'Otisfield' });
    const admin = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 2, manages: other.id })).id);
    const res = await rename(other.id, 'H\u0430rrison', admin);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The name H\u0430rrison is not available in Maine; choose another.');
    // Nor as a new client of the provider console.
    const created = await inject('POST', '/api/client', provider.h, {
      City: 'HARRISΟN', // Greek capital omicron
      Country: 'United States',
      StateProvince: 'Maine',
    });
    expect(created.statusCode).toBe(409);
  });

  it('refuses bidirectional and other invisible controls, and stores the NFKC form', async () => {
    const t = await buildClient(ctx.db, { city: 'Bidiville' });
    for (const City of ['Bidi\u202eellivx', 'Bidi\u200bville', 'Bidi\u2066ville\u2069']) {
      const res = await rename(t.id, City);
      expect(res.statusCode, JSON.stringify(City)).toBe(400);
      expect(res.json().fields[0].field).toBe('City');
    }
    const wide = await rename(t.id, 'Ｗｉｄｅｖｉｌｌｅ');
    expect(wide.statusCode).toBe(200);
    expect(wide.json().City).toBe('Wideville');
  });

  it('counts another town’s old names as taken, so they cannot take over its old links', async () => {
    const a = await buildClient(ctx.db, { city: 'Oldtown' });
    expect((await rename(a.id, 'Newtown')).statusCode).toBe(200);
    const b = await buildClient(ctx.db, { city: 'Thirdtown' });
    const res = await rename(b.id, 'oldtown');
    expect(res.statusCode).toBe(409);
    // The old link still leads to the town that had the name.
    const lookup = await inject('GET', '/api/client/Maine/Oldtown');
    expect(lookup.json().ClientID).toBe(a.id);
    // A town may take back its own old name.
    expect((await rename(a.id, 'Oldtown')).statusCode).toBe(200);
  });

  it('answers a rename to an inactive town’s name only that the name is not available', async () => {
    const hidden = await buildClient(ctx.db, { city: 'Secretville', isActive: false });
    const t = await buildClient(ctx.db, { city: 'Plainville' });
    const admin = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 2, manages: t.id })).id);
    const res = await rename(t.id, 'secretville', admin);
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body.message).toBe('The name secretville is not available in Maine; choose another.');
    expect(JSON.stringify(body)).not.toMatch(new RegExp(`Secretville|${hidden.id}|exists|inactive`));
  });
});

describe('accounts and sessions (issue 37)', () => {
  const newProvider = async () => {
    seq++;
    const u = await buildUser(ctx.db, { roleId: 1, password: PASSWORD, username: `selfedit${seq}` });
    return { user: u, h: await authHeader(ctx.app, u.id), other: await authHeader(ctx.app, u.id) };
  };
  const me = (u: { username: string }, over: Record<string, unknown>) => ({
    Username: u.username,
    Email: `${u.username}@example.test`,
    ...over,
  });

  it('changing one’s own password or email needs the current password, and ends every other session', async () => {
    const { user, h, other } = await newProvider();
    const url = `/api/user/${user.id}`;
    // A stolen session alone cannot change the password or the email.
    for (const over of [
      { Password: 'a brand new password' },
      { Email: 'attacker@evil.example' },
      { Password: 'a brand new password', CurrentPassword: 'not the password' },
    ]) {
      const res = await inject('PUT', url, h, me(user, over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().fields[0].field).toBe('CurrentPassword');
    }
    expect((await inject('GET', url, other)).statusCode).toBe(200);
    // A rename alone needs nothing more.
    expect((await inject('PUT', url, h, me(user, {}))).statusCode).toBe(200);

    const ok = await inject(
      'PUT',
      url,
      h,
      me(user, { Email: 'new@example.test', CurrentPassword: PASSWORD }),
    );
    expect(ok.statusCode).toBe(200);
    expect((await inject('GET', url, h)).statusCode).toBe(200);
    expect((await inject('GET', url, other)).statusCode).toBe(401);
  });

  it('needs the second factor too when it is on', async () => {
    const { user, h } = await newProvider();
    const start = await inject('POST', '/api/two-factor/start', h);
    const secret = (start.json() as { Secret: string }).Secret;
    const confirm = await inject('POST', '/api/two-factor/confirm', h, { Code: totp(secret, Date.now()) });
    expect(confirm.statusCode).toBe(200);
    const url = `/api/user/${user.id}`;
    const body = me(user, { Password: 'a brand new password', CurrentPassword: PASSWORD });
    const noCode = await inject('PUT', url, h, body);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().fields[0].field).toBe('Code');
    const wrong = await inject('PUT', url, h, { ...body, Code: '000000' });
    expect(wrong.statusCode).toBe(400);
    const ok = await inject('PUT', url, h, { ...body, Code: totp(secret, Date.now() + 30_000) });
    expect(ok.statusCode).toBe(200);
  });

  it('answers a username or email conflict the same way, whoever’s it is', async () => {
    const existing = await buildUser(ctx.db, { roleId: 3, manages: town.id, username: 'someone.known' });
    const body = (over: object) => ({
      Username: 'fresh.name',
      Email: 'fresh@example.test',
      Password: 'twelve chars!',
      ...over,
    });
    const byName = await inject('POST', '/api/user', sup.h, body({ Username: existing.username }));
    const byEmail = await inject('POST', '/api/user', sup.h, body({ Email: existing.email }));
    expect(byName.statusCode).toBe(409);
    expect(byEmail.json()).toEqual(byName.json());
  });

  it('marks the sign-in answer and every signed-in answer Cache-Control: no-store', async () => {
    const { user, h } = await newProvider();
    const login = await inject('POST', '/api/login', {}, { Identity: user.username, Password: PASSWORD });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const failed = await inject(
      'POST',
      '/api/login',
      {},
      { Identity: user.username, Password: 'wrong password' },
    );
    expect(failed.headers['cache-control']).toBe('no-store');
    // A handler's own caching (`private, no-cache` on a token-dependent town lookup) does not win.
    for (const url of ['/api/client/Maine/Harrison', `/api/client/${town.id}`, `/api/user/${user.id}`]) {
      const res = await inject('GET', url, h);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });
});

describe('error answers (issue 37)', () => {
  it('keeps the ErrorBody shape for Fastify’s own URL, JSON and size errors, without echoing the request', async () => {
    const marker = 'ECHOMARKER';
    const cases = [
      { method: 'GET' as const, url: `/api/client/${marker}%E0%A4%A` },
      { method: 'GET' as const, url: `/%${marker}` },
      {
        method: 'POST' as const,
        url: '/api/login',
        headers: { 'content-type': 'application/json' },
        payload: `{"${marker}":`,
      },
      {
        method: 'POST' as const,
        url: '/api/login',
        headers: { 'content-type': 'application/json' },
        payload: `"${marker}${'x'.repeat(2 * 1024 * 1024)}"`,
      },
      {
        method: 'POST' as const,
        url: '/api/login',
        headers: { 'content-type': `text/${marker}` },
        payload: 'x',
      },
    ];
    for (const c of cases) {
      const res = await ctx.app.inject(c);
      expect(res.statusCode, c.url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, c.url).toBeLessThan(500);
      const body = res.json();
      expect(Object.keys(body).sort(), c.url).toEqual(['code', 'error', 'message', 'statusCode']);
      expect(body.statusCode).toBe(res.statusCode);
      expect(res.body, c.url).not.toContain(marker);
    }
  });
});
