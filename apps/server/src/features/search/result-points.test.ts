import { beforeAll, describe, expect, it } from 'vitest';
import type { ParcelFeature, PropertyRecordInput, ResultPoints, SearchResponse } from '@opp/contracts';
import { setupSearchPaths, setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { lotRow } from '../../../test/parcel-layers.ts';
import { featuresOfJson } from '../parcels/parcel-files.ts';
import { importParcelLayer } from '../parcels/parcel-import.ts';

/*
 * The results map's points (issue 48: "the results map shows all the results, not only the current
 * page"): every match of a search, in its order, at its parcel's centroid, from the roll index and from
 * SQL alike.
 */

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000 });
const engines = setupSearchPaths(ctx, { publicRateLimitPerMinute: 1_000_000 });
let townId = 0;
let bareTownId = 0;

const record = (
  Account: string,
  MapLot: string,
  StreetNumber: string,
  StreetName: string,
): PropertyRecordInput => ({
  Account,
  MapLot,
  StreetNumber,
  StreetName,
  Owners: [{ OwnerName: `OWNER ${Account}` }],
});

// Lots 0–3 along a street; 3 and 4 are condominium units on lot 2-3; 6 has no shape.
const RECORDS = [
  record('1', '2-1', '10', 'ELM ST'),
  record('2', '2-2', '20', 'ELM ST'),
  record('3', '2-3-1', '30', 'ELM ST'),
  record('4', '2-3-2', '30', 'ELM ST'),
  record('5', '2-4', '40', 'OAK ST'),
  record('6', '9-9', '90', 'ELM ST'),
];

beforeAll(async () => {
  const town = await buildClient(ctx.db, { city: 'Pointville' });
  townId = town.id;
  const { client } = await publishRoll(ctx.db, town.id, RECORDS);
  const report = await importParcelLayer(ctx.db, featuresOfJson(lotRow(['2-1', '2-2', '2-3', '2-4']), 'x'), {
    clientId: town.id,
    rollId: client.activeRollId,
    key: 'MapLot',
    property: 'MapLot',
    fileName: 'lots.geojson',
    dryRun: false,
  });
  expect(report.recordsMatched).toBe(5);
  const bare = await buildClient(ctx.db, { city: 'Mapless' });
  bareTownId = bare.id;
  await publishRoll(ctx.db, bare.id, RECORDS);
}, 120_000);

const pointsUrl = (params: Record<string, string>, clientId = townId) =>
  `/api/propertysearch/${clientId}/points?${new URLSearchParams(params)}`;

/** The box of a parcel's shape, as its own route answers it. */
async function boxOf(account: string) {
  const shape = (await ctx.app.inject(`/api/parcels/${townId}/${account}`)).json<ParcelFeature>();
  const ring = (
    shape.geometry.type === 'Polygon' ? shape.geometry.coordinates : shape.geometry.coordinates[0]!
  )[0]!;
  const xs = ring.map((p) => p[0]!);
  const ys = ring.map((p) => p[1]!);
  return {
    minLon: Math.min(...xs),
    maxLon: Math.max(...xs),
    minLat: Math.min(...ys),
    maxLat: Math.max(...ys),
  };
}

describe('GET /api/propertysearch/{clientId}/points', () => {
  it('places every match on its parcel, in the search’s order, and counts those without a shape', async () => {
    const sort = JSON.stringify({ sortby: 'Location', descending: true });
    const page = await ctx.app.inject({
      method: 'POST',
      url: `/api/propertysearch/${townId}?pagesize=500`,
      payload: { sort: { sortby: 'Location', descending: true } },
    });
    const order = page.json<SearchResponse>().SearchProperties.map((r) => r.Account);
    for (const [engine, app] of engines()) {
      const res = await app.inject(pointsUrl({ sort }));
      expect(res.statusCode, engine).toBe(200);
      const body = res.json<ResultPoints>();
      expect(body.TotalRecords, engine).toBe(6);
      expect(body.RecordsRead, engine).toBe(6);
      expect(
        body.Points.map((p) => p[0]),
        engine,
      ).toEqual(order.filter((a) => a !== '6'));
      expect(body.Points.find((p) => p[0] === '3')![1], engine).toBe('30 ELM ST');
    }
    // Each point is inside its parcel's box; the units share their building's.
    const { Points } = (await ctx.app.inject(pointsUrl({}))).json<ResultPoints>();
    const at = new Map(Points.map(([a, , lon, lat]) => [a, [lon, lat] as const]));
    for (const [account, lot] of [
      ['1', '1'],
      ['3', '3'],
      ['5', '5'],
    ] as const) {
      const box = await boxOf(lot);
      const [lon, lat] = at.get(account)!;
      expect(lon).toBeGreaterThan(box.minLon);
      expect(lon).toBeLessThan(box.maxLon);
      expect(lat).toBeGreaterThan(box.minLat);
      expect(lat).toBeLessThan(box.maxLat);
    }
    expect(at.get('4')).toEqual(at.get('3'));
  });

  it('answers the search’s words and filters, on both engines', async () => {
    for (const [engine, app] of engines()) {
      const body = (await app.inject(pointsUrl({ query: 'oak' }))).json<ResultPoints>();
      expect(body, engine).toMatchObject({ TotalRecords: 1, RecordsRead: 1 });
      expect(
        body.Points.map((p) => p[0]),
        engine,
      ).toEqual(['5']);
      const none = (await app.inject(pointsUrl({ query: 'nowhere' }))).json<ResultPoints>();
      expect(none, engine).toEqual({ Points: [], TotalRecords: 0, RecordsRead: 0 });
    }
  });

  it('404 for a town without a parcel map; 400 naming the field for a search that is not one', async () => {
    const bare = await ctx.app.inject(pointsUrl({}, bareTownId));
    expect(bare.statusCode).toBe(404);
    expect(bare.json()).toMatchObject({ message: 'This town has no parcel map' });
    const bad = await ctx.app.inject(pointsUrl({ filters: 'not json' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/filters/);
  });
});
