import { beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { FullProperty, PropertyRecord, USER_DEFINED_FIELDS } from '@opp/contracts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { TEST_TOWN } from '../../../test/test-town.ts';
import { clientsRepository } from '../clients/clients.repository.ts';

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000 });
beforeAll(async () => {
  const town = await buildClient(ctx.db, { city: 'Prop Ville', stateProvince: 'New Hampshire' });
  await publishRoll(ctx.db, town.id, [
    ...TEST_TOWN,
    {
      Account: 'A-100.5',
      MapLot: 'X1',
      DateUpdated: '2023-04-01',
      TotalTaxOutstanding: 12.5,
      Exemptions: [{ ExemptionID: 'V', Description: 'Veteran', Value: 4000 }],
      Taxes: [
        {
          TaxYear: 2023,
          Rate: 0.0215,
          LandValue: 1,
          OriginalTaxAmount: 1000.25,
          EffectiveDate: '2023-08-01',
        },
      ],
      PropertyCode: { Description: 'Property Code', UserDefinedValue: '101' },
    },
  ]);
});

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ url, headers });

describe('GET /api/fullproperty/{account}?city=&state=', () => {
  it('answers the full §3 record with every field, and when the roll was published', async () => {
    const res = await get('/api/fullproperty/1?city=Prop%20Ville&state=New%20Hampshire');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(FullProperty.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      Account: '1',
      MapLot: 'R01-002-A',
      Book: '1234',
      Page: '56',
      StreetNumber: '12',
      StreetName: 'Elm St',
      TotalBuildingValue: 100000,
      LandValue: 50000,
      TotalAcres: 1.5,
      Owners: [
        {
          OwnerName: 'SMITH, JOHN',
          Address1: '1 Post Rd',
          Address2: '',
          Address3: '',
          City: 'Testville',
          State: 'ME',
          ZipCode: '',
          Country: '',
        },
        { OwnerName: 'SMITH, MARY' },
      ],
      Sales: [
        { SaleDate: '2019-05-01', SalePrice: 200000 },
        { SaleDate: '2021-06-15', SalePrice: 250000 },
      ],
      Buildings: [{ BuildingType: 'Colonial', Area: 2000, Bedrooms: 3, FullBaths: 2, HalfBaths: 1 }],
      Images: ['/api/files/image/p1.jpg'],
      CommercialBuildings: [],
      PropertyCode: null,
    });
    expect(new Date(body.LastUpdated).getTime()).toBeGreaterThan(Date.now() - 600_000);
    for (const key of USER_DEFINED_FIELDS) expect(body).toHaveProperty(key);
  });

  it('accepts the state abbreviation, any case, and accounts with dots and dashes', async () => {
    const res = await get('/api/fullproperty/A-100.5?city=prop%20ville&state=nh');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      Account: 'A-100.5',
      DateUpdated: '2023-04-01',
      TotalTaxOutstanding: 12.5,
      Exemptions: [{ ExemptionID: 'V', Description: 'Veteran', Value: 4000 }],
      Taxes: [{ TaxYear: 2023, Rate: 0.0215, OriginalTaxAmount: 1000.25, EffectiveDate: '2023-08-01' }],
      PropertyCode: { Description: 'Property Code', UserDefinedValue: '101' },
    });
  });

  it('is a 404 for an unknown account or town, and only serves the published roll', async () => {
    for (const url of [
      '/api/fullproperty/999?city=Prop%20Ville&state=NH',
      '/api/fullproperty/1?city=Elsewhere&state=NH',
      '/api/fullproperty/1?city=Prop%20Ville&state=Maine',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('not_found');
      expect(res.headers.etag).toBeUndefined();
    }
    const other = await buildClient(ctx.db, { city: 'Rollover', stateProvince: 'Maine' });
    await publishRoll(ctx.db, other.id, [{ Account: 'OLD' }]);
    expect((await get('/api/fullproperty/OLD?city=Rollover&state=ME')).statusCode).toBe(200);
    await publishRoll(ctx.db, other.id, [{ Account: 'NEW' }]);
    expect((await get('/api/fullproperty/OLD?city=Rollover&state=ME')).statusCode).toBe(404);
    expect((await get('/api/fullproperty/NEW?city=Rollover&state=ME')).statusCode).toBe(200);
  });

  it('sends the record as stored, the same on every read, as JSON', async () => {
    const url = '/api/fullproperty/A-100.5?city=Prop%20Ville&state=NH';
    const first = await get(url);
    const again = await get(url);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    const body = JSON.parse(first.body);
    expect(FullProperty.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ Account: 'A-100.5', MapLot: 'X1', Exemptions: [{ Value: 4000 }] });
    expect(typeof body.LastUpdated).toBe('string');
  });

  it('serves a roll imported before records were packed (stored whole) exactly as a packed one', async () => {
    const town = await buildClient(ctx.db, { city: 'Old Storage', stateProvince: 'Maine' });
    const records = [
      { Account: 'OLD', StreetName: 'ELM ST', Owners: [{ OwnerName: 'ROE, JANE' }] },
      { Account: 'NEW', StreetName: 'OAK ST', Sales: [{ SaleDate: '2020-01-02', SalePrice: 5 }] },
    ];
    await publishRoll(ctx.db, town.id, records);
    // What a roll published before migration 0009 holds: the whole JSON in properties.record and no
    // row in property_records.
    const rollId = (await clientsRepository.findById(ctx.db, town.id))!.activeRollId!;
    await ctx.db
      .execute(sql`update properties set record = ${JSON.stringify(PropertyRecord.parse(records[0]))}
                              where roll_id = ${rollId} and account = 'OLD'`);
    await ctx.db.execute(sql`delete from property_records where roll_id = ${rollId} and account = 'OLD'`);
    for (const input of records) {
      const res = await get(`/api/fullproperty/${input.Account}?city=Old%20Storage&state=ME`);
      expect(res.statusCode).toBe(200);
      const { LastUpdated, ...record } = JSON.parse(res.body) as Record<string, unknown>;
      expect(typeof LastUpdated).toBe('string');
      expect(JSON.stringify(record)).toBe(JSON.stringify(PropertyRecord.parse(input)));
    }
  });

  it('stops serving a town at once when it is deactivated or renamed', async () => {
    const town = await buildClient(ctx.db, { city: 'Gone Soon', stateProvince: 'Maine' });
    await publishRoll(ctx.db, town.id, [{ Account: '7' }]);
    expect((await get('/api/fullproperty/7?city=Gone%20Soon&state=ME')).statusCode).toBe(200);
    await clientsRepository.update(ctx.db, town.id, { city: 'Renamed' });
    expect((await get('/api/fullproperty/7?city=Renamed&state=ME')).statusCode).toBe(200);
    await clientsRepository.update(ctx.db, town.id, { isActive: false });
    expect((await get('/api/fullproperty/7?city=Renamed&state=ME')).statusCode).toBe(404);
  });

  it('is a 400 naming the field for a missing town or a malformed account', async () => {
    const cases: Array<[string, string]> = [
      ['/api/fullproperty/1?state=NH', 'city'],
      ['/api/fullproperty/1?city=Prop%20Ville', 'state'],
      ['/api/fullproperty/1?city=&state=NH', 'city'],
      [`/api/fullproperty/1?city=${'x'.repeat(101)}&state=NH`, 'city'],
      ["/api/fullproperty/1'%20OR%201=1?city=Prop%20Ville&state=NH", 'account'],
      [`/api/fullproperty/${'9'.repeat(65)}?city=Prop%20Ville&state=NH`, 'account'],
    ];
    for (const [url, field] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    }
  });

  it('sends ETag and Last-Modified and answers 304 while the roll is unchanged', async () => {
    const url = '/api/fullproperty/2?city=Prop%20Ville&state=NH';
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['last-modified']).toBeTruthy();
    expect((await get(url, { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    expect(
      (await get(url, { 'if-modified-since': first.headers['last-modified'] as string })).statusCode,
    ).toBe(304);
    const longAgo = new Date(Date.now() - 86_400_000).toUTCString();
    expect((await get(url, { 'if-modified-since': longAgo })).statusCode).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    const both = await get(url, {
      'if-none-match': 'W/"something-else"',
      'if-modified-since': first.headers['last-modified'] as string,
    });
    expect(both.statusCode).toBe(200);
  });
});

describe('a node keeps the towns it looked up for TOWN_CACHE_MS', () => {
  const cached = setupTestApp({ townCacheMs: 1000 });
  const page = (city: string) =>
    cached.app.inject({ method: 'GET', url: `/api/fullproperty/7?city=${city}&state=ME` });

  it('serves a deactivated town until the time is up, then no more', async () => {
    const town = await buildClient(cached.db, { city: 'Slow Fade', stateProvince: 'Maine' });
    await publishRoll(cached.db, town.id, [{ Account: '7' }]);
    expect((await page('Slow%20Fade')).statusCode).toBe(200);
    await clientsRepository.update(cached.db, town.id, { isActive: false });
    expect((await page('Slow%20Fade')).statusCode).toBe(200);
    // The clock is moved on rather than waited for.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 1000);
      expect((await page('Slow%20Fade')).statusCode).toBe(404);
    } finally {
      vi.useRealTimers();
    }
  });
});
