import { beforeAll, describe, expect, it } from 'vitest';
import { PublicClient } from '@opp/contracts';
import { setupTestApp } from '../../../test/helpers.ts';
import { authHeader, buildClient, buildUser, publishRoll } from '../../../test/factories.ts';
import { clientsRepository } from './clients.repository.ts';

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000, exportRateLimitPerMinute: 1_000_000 });

const ids = {
  portland: 0,
  barHarbor: 0,
  hidden: 0,
  testTown: 0,
  lyme: 0,
  hanover: 0,
  vtTest: 0,
  txHidden: 0,
};
const headers = {
  provider: {} as Record<string, string>,
  portlandAdmin: {} as Record<string, string>,
  lymeAdmin: {} as Record<string, string>,
};

beforeAll(async () => {
  const make = async (city: string, stateProvince: string, isActive = true, isProduction = true) => {
    const c = await buildClient(ctx.db, { city, stateProvince, isActive, isProduction });
    await publishRoll(ctx.db, c.id, [
      { Account: '1', Owners: [{ OwnerName: 'SMITH, JOHN' }], Land: [{ LandDescription: 'Farm' }] },
    ]);
    return c.id;
  };
  ids.portland = await make('Portland', 'Maine');
  ids.barHarbor = await make('bar Harbor', 'Maine');
  ids.hidden = await make('Hiddenville', 'Maine', false);
  ids.testTown = await make('Testtown', 'Maine', true, false);
  ids.lyme = await make('Lyme', 'New Hampshire');
  // Stored by its abbreviation (an older import): still the same state.
  ids.hanover = await make('Hanover', 'NH');
  ids.vtTest = await make('Stowe', 'Vermont', true, false);
  ids.txHidden = await make('Austin', 'Texas', false);
  // Portland was called Old Port before (as a rename records it).
  await clientsRepository.moveAliases(
    ctx.db,
    ids.portland,
    { stateName: 'Maine', city: 'Old Port' },
    { stateName: 'Maine', city: 'Portland' },
    3,
  );
  headers.provider = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 1 })).id);
  headers.portlandAdmin = await authHeader(
    ctx.app,
    (await buildUser(ctx.db, { roleId: 2, manages: ids.portland })).id,
  );
  headers.lymeAdmin = await authHeader(
    ctx.app,
    (await buildUser(ctx.db, { roleId: 3, manages: ids.lyme })).id,
  );
});

const get = (url: string, h: Record<string, string> = {}) => ctx.app.inject({ url, headers: h });

describe('GET /api/states and /api/{state}/cities', () => {
  it('lists the states of active production towns, sorted, by full name', async () => {
    const res = await get('/api/states');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(['Maine', 'New Hampshire']);
  });

  it("lists a state's active production towns sorted, for the name or abbreviation in any case", async () => {
    for (const state of ['Maine', 'maine', 'ME', 'me'])
      expect((await get(`/api/${encodeURIComponent(state)}/cities`)).json(), state).toEqual([
        'bar Harbor',
        'Portland',
      ]);
    for (const state of ['New Hampshire', 'new%20hampshire', 'NH'])
      expect((await get(`/api/${state}/cities`)).json(), state).toEqual(['Hanover', 'Lyme']);
  });

  it('lists nothing for a state with only test or inactive towns, or an unknown state', async () => {
    expect((await get('/api/Vermont/cities')).json()).toEqual([]);
    expect((await get('/api/TX/cities')).json()).toEqual([]);
    expect((await get('/api/Narnia/cities')).json()).toEqual([]);
    expect((await get(`/api/${'x'.repeat(101)}/cities`)).statusCode).toBe(400);
  });

  it('sends an ETag and answers 304 while the list is unchanged', async () => {
    for (const url of ['/api/states', '/api/ME/cities']) {
      const first = await get(url);
      expect(first.headers.etag).toBeTruthy();
      expect(first.headers['cache-control']).toBe('public, no-cache');
      const again = await get(url, { 'if-none-match': first.headers.etag as string });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
    const before = (await get('/api/ME/cities')).headers.etag as string;
    await buildClient(ctx.db, { city: 'Augusta', stateProvince: 'Maine', isActive: false });
    expect((await get('/api/ME/cities', { 'if-none-match': before })).statusCode).toBe(304);
    const augusta = await buildClient(ctx.db, { city: 'Zeta', stateProvince: 'Maine' });
    const changed = await get('/api/ME/cities', { 'if-none-match': before });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual(['bar Harbor', 'Portland', 'Zeta']);
    await clientsRepository.update(ctx.db, augusta.id, { isActive: false });
  });
});

describe('GET /api/client/{state}/{city}', () => {
  it('finds a town by state name or abbreviation and city in any case', async () => {
    for (const url of ['/api/client/Maine/Portland', '/api/client/me/PORTLAND', '/api/client/ME/portland']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json()).toEqual({ ClientID: ids.portland, TokenValid: false });
    }
    expect((await get('/api/client/NH/hanover')).json().ClientID).toBe(ids.hanover);
    expect((await get('/api/client/Maine/bar%20harbor')).json().ClientID).toBe(ids.barHarbor);
  });

  it('finds a renamed town by its earlier name, and reaches test towns by URL', async () => {
    expect((await get('/api/client/Maine/Old%20Port')).json().ClientID).toBe(ids.portland);
    expect((await get('/api/client/Maine/Testtown')).json().ClientID).toBe(ids.testTown);
  });

  it('is a JSON 404 for inactive and unknown towns', async () => {
    for (const url of [
      '/api/client/Maine/Hiddenville',
      '/api/client/Maine/Nowhere',
      '/api/client/Narnia/Portland',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toMatchObject({
        statusCode: 404,
        code: 'not_found',
        message: 'Unable to find municipality',
      });
    }
  });

  it('says TokenValid only for a live session allowed to administer the town', async () => {
    const url = '/api/client/Maine/Portland';
    expect((await get(url, headers.provider)).json().TokenValid).toBe(true);
    expect((await get(url, headers.portlandAdmin)).json().TokenValid).toBe(true);
    expect((await get(url, headers.lymeAdmin)).json().TokenValid).toBe(false);
    expect(
      (await get(url, { authorization: 'Bearer not-a-real-token-at-all-123456' })).json().TokenValid,
    ).toBe(false);
    const res = await get(url, headers.provider);
    expect(res.headers.vary).toContain('Authorization');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /api/client/{clientId}', () => {
  it('answers the public municipality record and nothing internal', async () => {
    const res = await get(`/api/client/${ids.portland}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(PublicClient.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      ClientID: ids.portland,
      City: 'Portland',
      StateProvince: 'Maine',
      IsActive: true,
      IsProduction: true,
      ParcelCount: 1,
      BannerImage: null,
      AllowPaymentLink: false,
      PaymentLink: '',
    });
    expect(JSON.stringify(body)).not.toMatch(/active_?roll|activeRollId|createdAt/i);
    const again = await get(`/api/client/${ids.portland}`, { 'if-none-match': res.headers.etag as string });
    expect(again.statusCode).toBe(304);
  });

  it('hides inactive towns except from a provider administrator asking with showinactive=true', async () => {
    const url = `/api/client/${ids.hidden}`;
    expect((await get(url)).statusCode).toBe(404);
    expect((await get(`${url}?showinactive=true`)).statusCode).toBe(404);
    expect((await get(url, headers.provider)).statusCode).toBe(404);
    expect((await get(`${url}?showinactive=true`, headers.portlandAdmin)).statusCode).toBe(404);
    const res = await get(`${url}?showinactive=true`, headers.provider);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ClientID: ids.hidden, IsActive: false });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await get(`/api/client/${ids.portland}?showinactive=true`, headers.provider)).statusCode).toBe(
      200,
    );
  });

  it('answers test towns, 404 for unknown ids and 400 for malformed ones', async () => {
    expect((await get(`/api/client/${ids.testTown}`)).json().IsProduction).toBe(false);
    expect((await get('/api/client/999999')).statusCode).toBe(404);
    for (const id of ['0', '-3', '1.5', '1e309', '99999999999']) {
      const res = await get(`/api/client/${id}`);
      expect(res.statusCode, id).toBe(400);
      expect(res.json().fields[0].field).toBe('id');
    }
    const res = await get(`/api/client/${ids.portland}?showinactive=maybe`);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].field).toBe('showinactive');
  });
});

describe('inactive towns are invisible on every public call; test towns answer by URL', () => {
  const calls = (id: number) => [
    { method: 'POST' as const, url: `/api/propertysearch/${id}` },
    { method: 'POST' as const, url: `/api/search/${id}` },
    { method: 'GET' as const, url: `/api/propertysearch/${id}/export.csv` },
    { method: 'GET' as const, url: `/api/suggest/${id}?q=smith` },
    { method: 'GET' as const, url: `/api/landbuilding/${id}` },
    { method: 'GET' as const, url: `/api/client/${id}` },
  ];

  it('404 for an inactive town', async () => {
    for (const call of calls(ids.hidden)) {
      const res = await ctx.app.inject(call);
      expect(res.statusCode, call.url).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    const property = await get('/api/fullproperty/1?city=Hiddenville&state=Maine');
    expect(property.statusCode).toBe(404);
  });

  it('200 for a test town', async () => {
    for (const call of calls(ids.testTown))
      expect((await ctx.app.inject(call)).statusCode, call.url).toBe(200);
    const search = await ctx.app.inject({
      method: 'POST',
      url: `/api/propertysearch/${ids.testTown}?query=smith`,
    });
    expect(search.json().TotalRecords).toBe(1);
    expect((await get('/api/fullproperty/1?city=Testtown&state=ME')).statusCode).toBe(200);
  });
});

describe('unknown /api paths', () => {
  it('are JSON 404s', async () => {
    for (const url of ['/api/nope', '/api/client', '/api/fullproperty', '/api/Maine/towns']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
  });
});
