import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../test/helpers.ts';
import { authHeader, buildClient, buildUser } from '../../../test/factories.ts';
import { clientsRepository } from './clients.repository.ts';

const ctx = setupTestApp();

type Headers = Record<string, string>;
let seq = 0;

async function town(over: Parameters<typeof buildClient>[1] = {}) {
  seq++;
  const c = await buildClient(ctx.db, {
    city: `Harbor ${seq}`,
    description: `Town of Harbor ${seq}`,
    ...over,
  });
  const as = async (roleId: 1 | 2 | 3 | 4) =>
    authHeader(ctx.app, (await buildUser(ctx.db, { roleId, manages: roleId === 1 ? null : c.id })).id);
  return { c, sup: await as(2), site: await as(3), lower: await as(4) };
}

let provider: Headers;
beforeAll(async () => {
  provider = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 1 })).id);
});

const patch = (id: number, headers: Headers, payload: object) =>
  ctx.app.inject({ method: 'PATCH', url: `/api/client/${id}`, headers, payload });

async function uploadBanner(clientId: number, headers: Headers) {
  const bytes = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#123456' } })
    .png()
    .toBuffer();
  const boundary = 'xxBOUNDARYxx';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="ClientID"\r\n\r\n${clientId}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/image',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(res.statusCode).toBe(201);
  return res.json().BannerImage as string;
}

describe('PATCH /api/client/{clientId}', () => {
  it('a site admin renames the town; the old name becomes an alias so old URLs still resolve', async () => {
    const t = await town();
    const oldCity = t.c.city;
    const res = await patch(t.c.id, t.site, {
      City: 'New  Harbor Village',
      Description: 'Town of New Harbor Village',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ClientID: t.c.id,
      City: 'New Harbor Village',
      Description: 'Town of New Harbor Village',
    });
    const alias = await clientsRepository.findByAlias(ctx.db, 'Maine', oldCity.toUpperCase());
    expect(alias?.id).toBe(t.c.id);
    expect((await clientsRepository.findByStateCity(ctx.db, 'Maine', 'new harbor village'))?.id).toBe(t.c.id);
  });

  it('401 anonymous, 403 lower role / other town / provider-only fields, 400 bad input, 404, 409', async () => {
    const t = await town();
    const o = await town();
    const body = { City: 'Elsewhere', Description: 'Town of Elsewhere' };
    expect((await patch(t.c.id, {}, body)).statusCode).toBe(401);
    expect((await patch(t.c.id, t.lower, body)).statusCode).toBe(403);
    expect((await patch(t.c.id, o.sup, body)).statusCode).toBe(403);
    const active = await patch(t.c.id, t.sup, { IsActive: false });
    expect(active.statusCode).toBe(403);
    expect(active.json().message).toMatch(/IsActive/);
    // Unchanged provider-only fields, as a full form would send them, are fine.
    expect((await patch(t.c.id, t.sup, { IsActive: true, StateProvince: 'Maine' })).statusCode).toBe(200);

    const cases: Array<[object, string]> = [
      [{ City: '   ' }, 'City'],
      [{ City: 'x'.repeat(101) }, 'City'],
      [{ City: 'Fine', Description: 'City of Fine' }, 'Description'],
      [{ BannerImage: 'someone-elses.png' }, 'BannerImage'],
    ];
    for (const [payload, field] of cases) {
      const res = await patch(t.c.id, t.site, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().fields[0].field).toBe(field);
    }
    expect((await patch(999999, provider, body)).statusCode).toBe(404);
    expect((await patch(999999, t.sup, body)).statusCode).toBe(403);
    const taken = await patch(t.c.id, t.sup, {
      City: o.c.city.toLowerCase(),
      Description: `Town of ${o.c.city.toLowerCase()}`,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fields[0].field).toBe('City');
    // Nothing changed along the way.
    expect(await clientsRepository.findById(ctx.db, t.c.id)).toMatchObject({
      city: t.c.city,
      isActive: true,
    });
  });

  it('BannerImage: only this client’s uploads; null clears it and deletes the file', async () => {
    const t = await town();
    const o = await town();
    const theirs = await uploadBanner(o.c.id, o.site);
    expect((await patch(t.c.id, t.site, { BannerImage: theirs })).statusCode).toBe(400);
    const mine = await uploadBanner(t.c.id, t.site);
    expect((await patch(t.c.id, t.site, { BannerImage: mine })).json()).toMatchObject({ BannerImage: mine });
    expect((await patch(t.c.id, t.site, { BannerImage: null })).json()).toMatchObject({ BannerImage: null });
    expect((await ctx.app.inject({ method: 'GET', url: `/api/files/image/${mine}` })).statusCode).toBe(404);
  });

  it('a provider admin may change every field, with the console’s rules', async () => {
    const t = await town();
    const res = await patch(t.c.id, provider, {
      IsActive: false,
      IsProduction: true,
      AllowPaymentLink: true,
      PaymentLink: 'pay.example.gov/tax',
      Country: 'United States',
      StateProvince: 'NH',
      Description: 'City of Somewhere',
      PictureLevel: 'Per Property',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      IsActive: false,
      StateProvince: 'New Hampshire',
      Description: 'City of Somewhere',
      PaymentLink: 'https://pay.example.gov/tax',
    });
    // The old state/city pair still resolves after the state moved.
    expect((await clientsRepository.findByAlias(ctx.db, 'Maine', t.c.city))?.id).toBe(t.c.id);
    expect((await patch(t.c.id, provider, { StateProvince: 'Atlantis' })).statusCode).toBe(400);
    expect((await patch(t.c.id, provider, { PaymentLink: 'not a link' })).statusCode).toBe(400);
    const denied = await patch(t.c.id, provider, { AllowPaymentLink: false });
    expect(denied.json()).toMatchObject({ AllowPaymentLink: false, PaymentLink: '' });
  });
});
