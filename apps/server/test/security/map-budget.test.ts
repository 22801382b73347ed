import { beforeAll, describe, expect, it } from 'vitest';
import type { ParcelCollection } from '@opp/contracts';
import { featuresOfJson } from '../../src/features/parcels/parcel-files.ts';
import { importParcelLayer } from '../../src/features/parcels/parcel-import.ts';
import { buildClient, publishRoll } from '../factories.ts';
import { setupTestApp } from '../helpers.ts';
import { lotRow, ROW_ORIGIN } from '../parcel-layers.ts';

/*
 * Issue 46, second outside attack (High): eight clients asking over and over for a whole town's map box
 * or its longest abutters lists slowed every visitor down without reaching a limit, because they spent
 * the generic public budget, counted per request. The map's answers have a budget of their own, counted
 * in kilobytes of answer (plugins/rate-limit.ts): whole-town boxes run it out in a few requests, the
 * same number of one-parcel calls does not, and neither touches the public budget.
 */

const ctx = setupTestApp({ mapRateLimitKbPerMinute: 400, publicRateLimitPerMinute: 40 });

const LOTS = Array.from({ length: 300 }, (_, i) => `L-${i + 1}`);
// Every lot of the row (100 ft each, 30,000 ft east of the origin): the whole town in one box.
const WHOLE_TOWN = [
  ROW_ORIGIN.lon - 0.01,
  ROW_ORIGIN.lat - 0.01,
  ROW_ORIGIN.lon + 0.2,
  ROW_ORIGIN.lat + 0.01,
];
let townId = 0;

beforeAll(async () => {
  const town = await buildClient(ctx.db);
  townId = town.id;
  const { client } = await publishRoll(
    ctx.db,
    town.id,
    LOTS.map((MapLot, i) => ({
      Account: String(i + 1),
      MapLot,
      StreetNumber: String(i + 1),
      StreetName: 'LONG RD',
      Owners: [{ OwnerName: `OWNER ${i + 1}`, Address1: `${i + 1} LONG RD`, City: 'Testville' }],
    })),
  );
  const report = await importParcelLayer(ctx.db, featuresOfJson(lotRow(LOTS), 'test'), {
    clientId: town.id,
    rollId: client.activeRollId,
    key: 'MapLot',
    fileName: 'long-road.geojson',
    dryRun: false,
  });
  expect(report.problems.count).toBe(0);
});

const get = (url: string, ip: string) => ctx.app.inject({ method: 'GET', url, remoteAddress: ip });
const box = (ip: string) => get(`/api/parcels/${townId}?bbox=${WHOLE_TOWN.join(',')}`, ip);

describe('the map’s own budget, weighted by the size of its answers (issue 46)', () => {
  it('refuses a flood of whole-town boxes from one address while another address’s call still answers', async () => {
    const first = await box('203.0.113.10');
    expect(first.statusCode, first.body).toBe(200);
    expect((first.json() as ParcelCollection).features).toHaveLength(LOTS.length);
    expect(first.rawPayload.length).toBeGreaterThan(40 * 1024);

    const statuses: number[] = [first.statusCode];
    for (let i = 0; i < 24; i++) statuses.push((await box('203.0.113.10')).statusCode);
    const answered = statuses.filter((s) => s === 200).length;
    // 400 KB a minute: a handful of whole-town boxes, then refusals.
    expect(answered).toBeGreaterThan(1);
    expect(answered).toBeLessThan(12);
    expect(statuses.at(-1)).toBe(429);
    const refused = await box('203.0.113.10');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toMatchObject({ code: 'too_many_requests' });
    // The whole map budget is spent: the address's abutters too.
    expect((await get(`/api/abutters/${townId}/5?distance=0`, '203.0.113.10')).statusCode).toBe(429);

    // Another visitor's cheap calls still answer: one parcel, a street's box, a short abutters list.
    expect((await get(`/api/parcels/${townId}/7`, '203.0.113.20')).statusCode).toBe(200);
    expect((await get(`/api/abutters/${townId}/7?distance=0`, '203.0.113.20')).statusCode).toBe(200);
  });

  it('lets as many cheap calls through as the boxes that were refused', async () => {
    // 25 one-parcel calls cost about a kilobyte each, far from the budget 25 whole-town boxes overran.
    for (let i = 0; i < 25; i++) {
      const res = await get(`/api/parcels/${townId}/${(i % LOTS.length) + 1}`, '203.0.113.30');
      expect(res.statusCode, `call ${i + 1}`).toBe(200);
    }
  });

  it('is separate from the public budget, both ways', async () => {
    // The flooding address's searches and record pages are not refused for its map use…
    for (let i = 0; i < 5; i++)
      expect((await get(`/api/client/${townId}`, '203.0.113.10')).statusCode).toBe(200);
    // …and 41 public reads, past their budget of 40, leave the map budget untouched.
    const ip = '203.0.113.40';
    for (let i = 0; i < 40; i++) await get(`/api/client/${townId}`, ip);
    expect((await get(`/api/client/${townId}`, ip)).statusCode).toBe(429);
    expect((await get(`/api/parcels/${townId}/3`, ip)).statusCode).toBe(200);
  });
});
