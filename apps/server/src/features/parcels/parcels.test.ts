import { execFileSync } from 'node:child_process';
import { zip as zipShapefile } from '@mapbox/shp-write';
import proj4 from 'proj4';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  AbuttersResponse,
  ParcelCollection,
  ParcelFeature,
  type ParcelLayerReport,
  type PropertyRecordInput,
} from '@opp/contracts';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { queryRows } from '../../db/database.ts';
import { authHeader, buildClient, buildUser, publishRoll } from '../../../test/factories.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { lotRow } from '../../../test/parcel-layers.ts';
import { multipart } from '../../../test/security/world.ts';
import { cleanPolygons } from './parcel-geometry.ts';
import { featuresOfJson, readParcelFile } from './parcel-files.ts';
import { importParcelLayer } from './parcel-import.ts';
import { parcelsRepository } from './parcels.repository.ts';

const ctx = setupTestApp();

const owner = (OwnerName: string, Address1 = '1 Post Rd') => ({
  OwnerName,
  Address1,
  City: 'Testville',
  State: 'ME',
  ZipCode: '04330',
});

/*
 * A street of lots 100 ft wide (test/parcel-layers.ts lotRow): A-1 at 0–100 ft, A-2 at 100–200, a gap at
 * 200–300, A-4 at 300–400, A-5 at 400–500, A-6 at 500–600. A-2 carries two condominium units.
 */
const LOTS = ['a-1', 'A.2', null, 'A 4', 'A-5', 'A-6', 'Z-9'];
const ROLL: PropertyRecordInput[] = [
  {
    Account: '101',
    MapLot: 'A-1',
    StreetNumber: '1',
    StreetName: 'Elm St',
    Owners: [owner('=HYPERLINK("x")')],
  },
  {
    Account: '102',
    MapLot: 'A-2',
    StreetNumber: '3',
    Apartment: '1',
    StreetName: 'Elm St',
    Owners: [owner('UNIT ONE LLC')],
  },
  {
    Account: '103',
    MapLot: 'A-2',
    StreetNumber: '3',
    Apartment: '2',
    StreetName: 'Elm St',
    Owners: [owner('UNIT TWO LLC')],
  },
  {
    Account: '104',
    MapLot: 'A-4',
    StreetNumber: '7',
    StreetName: 'Elm St',
    Owners: [owner('SMITH, JOHN', '9 Far Rd'), owner('SMITH, MARY', '9 Far Rd')],
  },
  {
    Account: '105',
    MapLot: 'A-5',
    StreetNumber: '9',
    StreetName: 'Elm St',
    Owners: [owner('SMITH, JOHN', '9 Far Rd')],
  },
  { Account: '106', MapLot: 'A-6', StreetNumber: '11', StreetName: 'Elm St', Owners: [owner('-DASH TRUST')] },
  { Account: '107', MapLot: 'B-1', StreetNumber: '2', StreetName: 'Oak St', Owners: [owner('NO SHAPE')] },
];

async function townWithLayer(layer: unknown = lotRow(LOTS)) {
  const client = await buildClient(ctx.db);
  const { client: published } = await publishRoll(ctx.db, client.id, ROLL);
  const report = await importParcelLayer(ctx.db, featuresOfJson(layer, 'test'), {
    clientId: client.id,
    rollId: published.activeRollId,
    key: 'MapLot',
    fileName: 'lots.geojson',
    dryRun: false,
  });
  return { client: published, report };
}

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

describe('ring repairs and problems', () => {
  const square = [
    [0, 0],
    [0.001, 0],
    [0.001, 0.001],
    [0, 0.001],
  ];
  it('closes an open ring, drops short and flat rings, and names what it did', () => {
    const r = cleanPolygons({
      type: 'MultiPolygon',
      coordinates: [
        [square],
        [
          [
            [1, 1],
            [1, 1.001],
            [1, 1],
          ],
        ],
        [
          [
            [2, 2],
            [2.001, 2],
            [2.002, 2],
            [2, 2],
          ],
        ],
      ],
    });
    expect(r).toEqual({
      ok: true,
      coordinates: [[[...square, [0, 0]]]],
      repairs: [
        'outer ring of polygon 1 was not closed: closed',
        'outer ring of polygon 2 has fewer than four positions: dropped',
        'outer ring of polygon 3 has no area: dropped',
      ],
    });
  });

  it('refuses what is not a usable polygon', () => {
    expect(cleanPolygons({ type: 'LineString', coordinates: square })).toEqual({
      ok: false,
      problem: 'is a LineString, not a polygon',
    });
    expect(cleanPolygons({ type: 'Polygon', coordinates: [] })).toEqual({
      ok: false,
      problem: 'has no usable polygon',
    });
    // A sliver: its rings are dropped and the import leaves it out with a warning.
    expect(
      cleanPolygons({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      }),
    ).toEqual({
      ok: true,
      coordinates: [],
      repairs: ['outer ring has fewer than four positions: dropped'],
    });
    expect(
      cleanPolygons({
        type: 'Polygon',
        coordinates: [
          [
            [500000, 4000000],
            [1, 1],
            [2, 3],
          ],
        ],
      }),
    ).toMatchObject({
      ok: false,
      problem: 'has coordinates outside WGS 84 longitude/latitude (500000, 4000000)',
    });
    expect(cleanPolygons(null)).toMatchObject({ ok: false });
  });
});

describe('reading layer files', () => {
  // NAD83 / Massachusetts Mainland (EPSG:26986), metres: as the .prj beside a town's Shapefile says it.
  const MA_MAINLAND_WKT =
    'PROJCS["NAD_1983_StatePlane_Massachusetts_Mainland_FIPS_2001",GEOGCS["GCS_North_American_1983",' +
    'DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],' +
    'UNIT["Degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic"],PARAMETER["False_Easting",200000.0],' +
    'PARAMETER["False_Northing",750000.0],PARAMETER["Central_Meridian",-71.5],' +
    'PARAMETER["Standard_Parallel_1",41.71666666666667],PARAMETER["Standard_Parallel_2",42.68333333333333],' +
    'PARAMETER["Latitude_Of_Origin",41.0],UNIT["Meter",1.0]]';
  const MA_MAINLAND =
    '+proj=lcc +lat_1=42.68333333333333 +lat_2=41.71666666666667 +lat_0=41 +lon_0=-71.5 +x_0=200000 ' +
    '+y_0=750000 +ellps=GRS80 +units=m +no_defs';

  it('reads a zipped Shapefile in state plane metres, reprojected to WGS 84 by its .prj', async () => {
    const lots = lotRow(['A-1', 'A-2']);
    const toPlane = proj4('EPSG:4326', MA_MAINLAND);
    const planar = structuredClone(lots);
    for (const f of planar.features) {
      const g = f.geometry as { coordinates: number[][][] };
      g.coordinates = g.coordinates.map((ring) => ring.map((p) => toPlane.forward(p)));
    }
    expect(
      (planar.features[0]!.geometry as { coordinates: number[][][] }).coordinates[0]![0]![0],
    ).toBeGreaterThan(100_000);
    const bytes = await zipShapefile<'nodebuffer'>(planar as never, {
      prj: MA_MAINLAND_WKT,
      outputType: 'nodebuffer',
      compression: 'DEFLATE',
    });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'opp-shp-')), 'lots.zip');
    fs.writeFileSync(file, bytes);
    const features = await readParcelFile(file);
    fs.rmSync(path.dirname(file), { recursive: true });
    expect(features.map((f) => f.properties.MapLot)).toEqual(['A-1', 'A-2']);
    // Every corner back where it was, to about a centimetre (1e-7 degrees).
    features.forEach((f, i) => {
      const got = (f.geometry as { coordinates: number[][][] }).coordinates[0]!;
      const want = (lots.features[i]!.geometry as { coordinates: number[][][] }).coordinates[0]!;
      const key = (p: number[]) => `${p[0]!.toFixed(7)},${p[1]!.toFixed(7)}`;
      expect(new Set(got.map(key))).toEqual(new Set(want.map(key)));
    });
  });

  it('reads TopoJSON, and refuses a file that is no layer', () => {
    expect(() => featuresOfJson({ type: 'Topology' }, 'x.json')).toThrow(/neither a GeoJSON/);
    expect(() => featuresOfJson([1, 2], 'x.json')).toThrow(
      /neither a GeoJSON FeatureCollection nor a TopoJSON/,
    );
    const topology = {
      type: 'Topology',
      arcs: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
          [0, 0],
        ],
      ],
      objects: {
        parcels: {
          type: 'GeometryCollection',
          geometries: [{ type: 'Polygon', arcs: [[0]], properties: { ML: '1-1' } }],
        },
      },
    };
    expect(featuresOfJson(topology, 't.topojson')).toEqual([
      {
        n: 1,
        properties: { ML: '1-1' },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
              [0, 0],
            ],
          ],
        },
      },
    ]);
  });
});

describe('importing a layer', () => {
  it('joins keys as search matches map/lots and reports the join', async () => {
    const { report } = await townWithLayer();
    expect(report).toMatchObject({
      featuresRead: 6,
      shapes: 6,
      recordsMatched: 6,
      recordsWithoutShape: { count: 1, first: ['Account 107 (Map/Lot B-1)'] },
      shapesWithoutRecord: { count: 1, first: ['MapLot Z-9'] },
      warnings: { count: 0 },
      problems: { count: 0 },
    });
    expect(report.layerId).toBeGreaterThan(0);
  });

  it('changes nothing for a file with a problem, or on a dry run; a good file replaces the layer', async () => {
    const { client, report } = await townWithLayer();
    const bad = lotRow(['A-1', 'A-2']);
    bad.features.push({
      type: 'Feature',
      properties: { MapLot: 'A-9' },
      geometry: { type: 'Point', coordinates: [-69.77, 44.31] },
    });
    const options = {
      clientId: client.id,
      rollId: client.activeRollId,
      key: 'MapLot' as const,
      fileName: 'x.geojson',
      dryRun: false,
    };
    const rejected = await importParcelLayer(ctx.db, featuresOfJson(bad, 'x'), options);
    expect(rejected.problems).toEqual({
      count: 1,
      first: ['feature 3 (MapLot A-9) is a Point, not a polygon'],
    });
    expect(rejected.layerId).toBeNull();
    const dry = await importParcelLayer(ctx.db, featuresOfJson(lotRow(['A-1']), 'x'), {
      ...options,
      dryRun: true,
    });
    expect(dry).toMatchObject({ recordsMatched: 1, layerId: null });
    const layers = () =>
      queryRows<{ id: number; n: number }>(
        ctx.db,
        sql`select l.id, (select count(*)::int from parcel_shapes s where s.layer_id = l.id) as n
              from parcel_layers l where l.client_id = ${client.id}`,
      );
    expect(await layers()).toEqual([{ id: report.layerId, n: 6 }]);

    // Five of the six records on today's map would lose their shape: not without the provider's word.
    const unconfirmed = await importParcelLayer(ctx.db, featuresOfJson(lotRow(['A-1']), 'x'), options);
    expect(unconfirmed).toMatchObject({
      needsConfirmation: true,
      layerId: null,
      loss: {
        fileName: 'lots.geojson',
        recordsOnMapNow: 6,
        recordsOnMapAfter: 1,
        recordsLosingShape: {
          count: 5,
          first: [
            'Account 102 (Map/Lot A-2)',
            'Account 103 (Map/Lot A-2)',
            'Account 104 (Map/Lot A-4)',
            'Account 105 (Map/Lot A-5)',
            'Account 106 (Map/Lot A-6)',
          ],
        },
      },
    });
    expect(await layers()).toEqual([{ id: report.layerId, n: 6 }]);
    const replaced = await importParcelLayer(ctx.db, featuresOfJson(lotRow(['A-1']), 'x'), {
      ...options,
      confirmLoss: true,
    });
    expect(replaced).toMatchObject({ needsConfirmation: false, loss: { recordsOnMapAfter: 1 } });
    expect(await layers()).toEqual([{ id: replaced.layerId, n: 1 }]);
    // The old layer's shapes went with it.
    const orphans = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from parcel_shapes where layer_id = ${report.layerId}`,
    );
    expect(orphans[0]!.n).toBe(0);
  });

  it('reads a layer and its roll in parts, each shape and record once, in order', async () => {
    const { client, report } = await townWithLayer();
    const all = async <T>(batches: AsyncIterable<T[]>) => {
      const sizes: number[] = [];
      const rows: T[] = [];
      for await (const batch of batches) {
        sizes.push(batch.length);
        rows.push(...batch);
      }
      return { sizes, rows };
    };
    const shapes = await all(parcelsRepository.shapeBatches(ctx.db, report.layerId!, 4));
    expect(shapes.sizes).toEqual([4, 2]);
    expect(shapes.rows.map((s) => s.key)).toEqual(['a-1', 'A.2', 'A 4', 'A-5', 'A-6', 'Z-9']);
    const records = await all(parcelsRepository.recordBatches(ctx.db, client.activeRollId!, { size: 3 }));
    expect(records.sizes).toEqual([3, 3, 1]);
    expect(records.rows.map((r) => r.account)).toEqual(['101', '102', '103', '104', '105', '106', '107']);
  });

  it('keeps the layer when a new roll is published, and joins the new roll', async () => {
    const { client } = await townWithLayer();
    expect((await get(`/api/parcels/${client.id}/101`)).statusCode).toBe(200);
    await publishRoll(ctx.db, client.id, [
      ...ROLL.filter((r) => r.Account !== '101'),
      { Account: '201', MapLot: 'A-1', StreetNumber: '1', StreetName: 'Elm Street' },
    ]);
    expect((await get(`/api/parcels/${client.id}/101`)).statusCode).toBe(404);
    const res = await get(`/api/parcels/${client.id}/201`);
    expect(res.statusCode).toBe(200);
    expect(res.json<ParcelFeature>().properties).toEqual({
      Account: '201',
      MapLot: 'A-1',
      Location: '1 Elm Street',
      Records: 1,
    });
  });
});

describe('the parcel indexes a node keeps', () => {
  it('are bounded by memory, not by count: requests rotated across nine towns build each index once', async () => {
    const towns = [];
    for (let i = 0; i < 9; i++) towns.push((await townWithLayer()).client.id);
    const node = await buildApp({ config: testConfig(), database: ctx.database });
    try {
      for (const round of [1, 2])
        for (const id of towns) {
          const res = await node.inject(`/api/parcels/${id}/101`);
          expect(res.statusCode, `round ${round}`).toBe(200);
        }
      expect(node.parcels.heldIndexes()).toBe(9);
    } finally {
      await node.close();
    }
  });
});

describe('a starting node', () => {
  it("builds its large layers' indexes before it is ready, when warming is on", async () => {
    const { client } = await townWithLayer();
    const start = async (warm: boolean) => {
      const node = await buildApp({
        config: testConfig({ searchIndex: { enabled: false, warm, memoryMb: 64, awaitParcels: 0 } }),
        database: ctx.database,
      });
      await node.ready();
      return node;
    };
    const warm = await start(true);
    try {
      // Readiness waits for the warm-up (plugins/health.test.ts); a layer this small is built at once.
      await warm.readiness.whenReady();
      expect((await warm.inject('/readyz')).statusCode).toBe(200);
      // Built before any request asked for it.
      const held = warm.parcels.heldIndexes();
      expect(held).toBeGreaterThanOrEqual(1);
      // Served from the index built at start: no new one.
      expect((await warm.inject(`/api/abutters/${client.id}/101`)).statusCode).toBe(200);
      expect(warm.parcels.heldIndexes()).toBe(held);
    } finally {
      await warm.close();
    }
    const cold = await start(false);
    try {
      expect((await cold.inject('/readyz')).statusCode).toBe(200);
      expect(cold.parcels.heldIndexes()).toBe(0);
    } finally {
      await cold.close();
    }
  });
});

describe('POST /api/parcels/{clientId}: the provider console upload', () => {
  const upload = async (clientId: number, layer: unknown, query = '', headers?: Record<string, string>) => {
    const body = multipart([
      {
        name: 'file',
        filename: 'lots.geojson',
        type: 'application/geo+json',
        data: Buffer.from(JSON.stringify(layer)),
      },
    ]);
    return ctx.app.inject({
      method: 'POST',
      url: `/api/parcels/${clientId}${query}`,
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
  };
  const provider = async () => authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 1 })).id);
  const shapesOf = async (clientId: number) =>
    (
      await queryRows<{ n: number }>(
        ctx.db,
        sql`select count(*)::int as n from parcel_shapes s join parcel_layers l on l.id = s.layer_id
             where l.client_id = ${clientId}`,
      )
    )[0]!.n;

  it('answers the join report on a dry run and writes nothing; then replaces the layer', async () => {
    const { client } = await townWithLayer();
    const headers = await provider();
    const layer = lotRow(['A-1', 'A-2', 'Q-7'], { property: 'PARCEL' });

    const dry = await upload(client.id, layer, '?property=PARCEL&dryRun=1', headers);
    expect(dry.statusCode).toBe(200);
    expect(dry.json<ParcelLayerReport>()).toMatchObject({
      FileName: 'lots.geojson',
      Key: 'MapLot',
      Property: 'PARCEL',
      FeaturesRead: 3,
      Shapes: 3,
      RecordsMatched: 3,
      RecordsWithoutShape: { Count: 4 },
      ShapesWithoutRecord: { Count: 1, First: ['PARCEL Q-7'] },
      Problems: { Count: 0, First: [] },
      Loss: {
        FileName: 'lots.geojson',
        RecordsOnMapNow: 6,
        RecordsOnMapAfter: 3,
        RecordsLosingShape: {
          Count: 3,
          First: ['Account 104 (Map/Lot A-4)', 'Account 105 (Map/Lot A-5)', 'Account 106 (Map/Lot A-6)'],
        },
      },
      NeedsConfirmation: true,
      DryRun: true,
      Replaced: false,
    });
    expect(await shapesOf(client.id)).toBe(6);

    // Half the map's records would lose their shape: refused until the provider confirms the loss.
    const unconfirmed = await upload(client.id, layer, '?property=PARCEL', headers);
    expect(unconfirmed.statusCode).toBe(409);
    expect(unconfirmed.json<ParcelLayerReport>()).toMatchObject({ NeedsConfirmation: true, Replaced: false });
    expect(await shapesOf(client.id)).toBe(6);

    const done = await upload(client.id, layer, '?property=PARCEL&confirmLoss=1', headers);
    expect(done.statusCode).toBe(200);
    expect(done.json<ParcelLayerReport>()).toMatchObject({ DryRun: false, Replaced: true, Shapes: 3 });
    expect(await shapesOf(client.id)).toBe(3);
    expect((await get(`/api/parcels/${client.id}/104`)).statusCode).toBe(404);
    expect((await get(`/api/parcels/${client.id}/101`)).statusCode).toBe(200);
    const audit = await queryRows<{ action: string; actor: string }>(
      ctx.db,
      sql`select action, actor_username as actor from audit_log where client_id = ${client.id}
           and action = 'parcels.import'`,
    );
    expect(audit).toHaveLength(1);
  });

  it('refuses a file with a problem with its report (422), and what is no layer (400); changes nothing', async () => {
    const { client } = await townWithLayer();
    const headers = await provider();
    const bad = lotRow(['A-1']);
    bad.features.push({
      type: 'Feature',
      properties: { MapLot: 'A-9' },
      geometry: { type: 'Point', coordinates: [-69.77, 44.31] },
    });
    const rejected = await upload(client.id, bad, '', headers);
    expect(rejected.statusCode).toBe(422);
    expect(rejected.json<ParcelLayerReport>()).toMatchObject({
      Problems: { Count: 1, First: ['feature 2 (MapLot A-9) is a Point, not a polygon'] },
      Replaced: false,
    });
    // A dry run answers the same report as what it asked for.
    const dry = await upload(client.id, bad, '?dryRun=1', headers);
    expect(dry.statusCode).toBe(200);
    expect(dry.json<ParcelLayerReport>()).toMatchObject({ Problems: { Count: 1 }, Replaced: false });
    const notALayer = await upload(client.id, { hello: 'world' }, '', headers);
    expect(notALayer.statusCode).toBe(400);
    expect(notALayer.json()).toMatchObject({ fields: [{ field: 'file' }] });
    const badKey = await upload(client.id, lotRow(['A-1']), '?key=Owner', headers);
    expect(badKey.statusCode).toBe(400);
    expect(badKey.body).toMatch(/MapLot, Account or LocId/);
    expect(await shapesOf(client.id)).toBe(6);
  });

  it('is for provider admins only', async () => {
    const { client } = await townWithLayer();
    expect((await upload(client.id, lotRow(['A-1']))).statusCode).toBe(401);
    const townAdmin = await buildUser(ctx.db, { roleId: 3, manages: client.id });
    const asTownAdmin = await upload(client.id, lotRow(['A-1']), '', await authHeader(ctx.app, townAdmin.id));
    expect(asTownAdmin.statusCode).toBe(403);
    const unknown = await upload(999_999, lotRow(['A-1']), '', await provider());
    expect(unknown.statusCode).toBe(404);
    expect(await shapesOf(client.id)).toBe(6);
  });
});

describe('GET /api/parcels', () => {
  it("answers a record's shape as a GeoJSON Feature, and 404 JSON for unknown accounts or towns", async () => {
    const { client } = await townWithLayer();
    const res = await get(`/api/parcels/${client.id}/103`);
    expect(res.statusCode).toBe(200);
    // Sent as text (parcels.routes.ts sendJson): held to the contract here.
    const f = ParcelFeature.parse(res.json());
    expect(f.type).toBe('Feature');
    expect(f.geometry.type).toBe('Polygon');
    expect(f.properties).toEqual({ Account: '103', MapLot: 'A-2', Location: '3 Elm St, Unit 2', Records: 2 });
    for (const url of [
      `/api/parcels/${client.id}/107`,
      `/api/parcels/${client.id}/999`,
      '/api/parcels/999999/101',
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.json()).toMatchObject({ code: 'not_found' });
    }
    const noLayer = await buildClient(ctx.db);
    await publishRoll(ctx.db, noLayer.id, ROLL);
    expect((await get(`/api/parcels/${noLayer.id}/101`)).json()).toMatchObject({
      message: 'This town has no parcel map',
    });
  });

  it('answers the parcels in a box, and 400 for a malformed or huge box', async () => {
    const { client } = await townWithLayer();
    const all = await get(`/api/parcels/${client.id}?bbox=-69.8,44.3,-69.7,44.4`);
    expect(all.statusCode).toBe(200);
    const fc = ParcelCollection.parse(all.json());
    expect(fc.Truncated).toBe(false);
    // Z-9 joins no record: not on the map.
    expect(fc.features.map((f) => f.properties.MapLot).sort()).toEqual(['A-1', 'A-2', 'A-4', 'A-5', 'A-6']);
    const west = await get(`/api/parcels/${client.id}?bbox=-69.7705,44.30,-69.76999,44.32`);
    expect(west.json<ParcelCollection>().features.map((f) => f.properties.MapLot)).toEqual(['A-1']);
    for (const bbox of ['1,2,3', 'a,b,c,d', '-69.7,44.3,-69.8,44.4', '-69,44,-60,45', '-200,44,-69,45', '']) {
      const r = await get(`/api/parcels/${client.id}?bbox=${bbox}`);
      expect(r.statusCode, bbox).toBe(400);
      expect(r.json()).toMatchObject({ code: 'validation_failed', fields: [{ field: 'bbox' }] });
    }
    expect((await get(`/api/parcels/${client.id}`)).statusCode).toBe(400);
  });
});

describe('abutters', () => {
  const list = async (clientId: number, account: string, q = '') => {
    const res = await get(`/api/abutters/${clientId}/${account}${q}`);
    expect(res.statusCode, res.body).toBe(200);
    return AbuttersResponse.parse(res.json());
  };

  it('lists the records within the distance, nearest first, with owners and rounded feet', async () => {
    const { client } = await townWithLayer();
    // From A-1 (0–100 ft): A-2 touches, A-4 is 200 ft away, A-5 300 ft, A-6 400 ft.
    const near = await list(client.id, '101', '?distance=300');
    expect(near.Subject).toEqual({ Account: '101', MapLot: 'A-1', Location: '1 Elm St' });
    expect(near.DistanceFeet).toBe(300);
    expect(near.Abutters.map((a) => [a.Account, a.MapLot, a.DistanceFeet])).toEqual([
      ['102', 'A-2', 0],
      ['103', 'A-2', 0],
      ['104', 'A-4', 200],
      ['105', 'A-5', 300],
    ]);
    expect(
      near.Abutters[2]!.Owners.map(
        (o) => `${o.OwnerName} / ${o.Address1}, ${o.City} ${o.State} ${o.ZipCode}`,
      ),
    ).toEqual(['SMITH, JOHN / 9 Far Rd, Testville ME 04330', 'SMITH, MARY / 9 Far Rd, Testville ME 04330']);
    // The default is 300 ft; 0 means touching; 2640 reaches every lot.
    expect((await list(client.id, '101')).Abutters).toHaveLength(4);
    expect((await list(client.id, '101', '?distance=0')).Abutters.map((a) => a.Account)).toEqual([
      '102',
      '103',
    ]);
    expect((await list(client.id, '101', '?distance=2640')).Abutters.map((a) => a.Account)).toEqual([
      '102',
      '103',
      '104',
      '105',
      '106',
    ]);
    // A condominium unit's abutters include the other unit on its shape, at 0 ft, not itself.
    expect(
      (await list(client.id, '102', '?distance=0')).Abutters.map((a) => [a.Account, a.DistanceFeet]),
    ).toEqual([
      ['101', 0],
      ['103', 0],
    ]);
  });

  it("a list asked for again says what the town says now: its owners' publication and its name", async () => {
    const { client } = await townWithLayer();
    const owners = async () =>
      (await list(client.id, '101', '?distance=400')).Abutters.flatMap((a) =>
        a.Owners.map((o) => o.OwnerName),
      );
    expect((await owners()).length).toBeGreaterThan(0);
    expect(await owners()).toEqual(await owners());
    await ctx.db.execute(sql`update clients set publish_owner_names = false where id = ${client.id}`);
    expect(await owners()).toEqual([]);
    await ctx.db.execute(sql`update clients set city = 'Renamed Town' where id = ${client.id}`);
    expect((await list(client.id, '101', '?distance=400')).Town.City).toBe('Renamed Town');
  });

  it('refuses distances outside 0 to 2,640 feet, naming the field', async () => {
    const { client } = await townWithLayer();
    for (const d of ['2641', '-1', '1.5', 'abc', '1e3', '']) {
      const res = await get(`/api/abutters/${client.id}/101?distance=${d}`);
      expect(res.statusCode, d).toBe(400);
      expect(res.json()).toMatchObject({ fields: [{ field: 'distance' }] });
    }
    expect((await get(`/api/abutters/${client.id}/107`)).statusCode).toBe(404);
  });

  it('exports every record, one mailing name and address a row, formula-safe, named by subject and rule', async () => {
    const { client } = await townWithLayer();
    const res = await get(`/api/abutters/${client.id}/104/abutters.csv?distance=400`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="abutters-400ft-7-Elm-St-map-lot-A-4.csv"',
    );
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    const today = new Date().toISOString().slice(0, 10).split('-');
    expect(lines.slice(0, 3)).toEqual([
      '"Abutters within 400 ft of 7 Elm St (Map/Lot A-4)"',
      `"Measured from this parcel's boundary, using the town's parcel map of ${today[1]}/${today[2]}/${today[0]}; the map is a reference, not a survey."`,
      '',
    ]);
    expect(lines[3]).toBe(
      '"Distance (ft)","Account","Map/Lot","Location","Owner","Address 1","Address 2","Address 3","City","State","ZIP","Country"',
    );
    expect(lines.slice(4)).toEqual([
      '0,"105","A-5","9 Elm St","SMITH, JOHN","9 Far Rd","","","Testville","ME","04330",""',
      '100,"102","A-2","3 Elm St, Unit 1","UNIT ONE LLC","1 Post Rd","","","Testville","ME","04330",""',
      '100,"103","A-2","3 Elm St, Unit 2","UNIT TWO LLC","1 Post Rd","","","Testville","ME","04330",""',
      '100,"106","A-6","11 Elm St","\'-DASH TRUST","1 Post Rd","","","Testville","ME","04330",""',
      '200,"101","A-1","1 Elm St","\'=HYPERLINK(""x"")","1 Post Rd","","","Testville","ME","04330",""',
    ]);
  });

  it('prints mailing labels, 30 to a page, and merges identical addresses on request', async () => {
    const client = await buildClient(ctx.db);
    // 41 lots 50 ft wide in a row, a second record on L-39 owned by L-40's owner: 41 neighbours of lot 0
    // within half a mile, one name and address twice.
    const keys = Array.from({ length: 41 }, (_, i) => `L-${i}`);
    const records: PropertyRecordInput[] = keys.map((k, i) => ({
      Account: String(i + 1),
      MapLot: k,
      Owners: [owner(`OWNER ${i}`, `${i} Label Way`)],
    }));
    records.push({ Account: '99', MapLot: 'L-39', Owners: [owner('OWNER 40', '40 Label Way')] });
    const { client: published } = await publishRoll(ctx.db, client.id, records);
    await importParcelLayer(ctx.db, featuresOfJson(lotRow(keys, { width: 50 }), 'x'), {
      clientId: client.id,
      rollId: published.activeRollId,
      key: 'MapLot',
      fileName: 'x',
      dryRun: false,
    });
    const plain = await labelPages(`/api/abutters/${client.id}/1/abutters.pdf?distance=2640`);
    expect(plain).toHaveLength(2);
    const labelsOn = (page: string) => (page.match(/OWNER \d+/g) ?? []).length;
    expect(plain.map(labelsOn)).toEqual([30, 11]);
    // Nearest first: the first row holds lots 1, 2, 3; each label has its address and city line.
    expect(plain[0]!.split('\n').find((l) => l.includes('OWNER'))).toMatch(/OWNER 1\s+OWNER 2\s+OWNER 3/);
    expect(plain[0]).toContain('1 Label Way');
    expect(plain[0]).toContain('Testville, ME 04330');
    expect(plain[1]!.match(/OWNER 40/g)).toHaveLength(2);
    // Each page's cover line names the list and counts its labels.
    expect(flat(plain[0]!)).toContain(
      'Abutters within 2,640 ft of Map/Lot L-0: 41 owner labels. Page 1 of 2.',
    );
    expect(flat(plain[1]!)).toContain('Page 2 of 2.');

    const merged = await labelPages(`/api/abutters/${client.id}/1/abutters.pdf?distance=2640&dedupe=1`);
    expect(merged.map(labelsOn)).toEqual([30, 10]);
    expect(merged[1]!.match(/OWNER 40/g)).toHaveLength(1);
    expect(merged[1]).toContain('Parcels L-39, L-40');
    expect(flat(merged[0]!)).toContain('40 owner labels');
  });

  it('gives co-owners at one address one label naming both, or one each on request', async () => {
    const { client } = await townWithLayer();
    // From A-5 at 0 ft: A-4, owned by SMITH, JOHN and SMITH, MARY of 9 Far Rd.
    const url = `/api/abutters/${client.id}/105/abutters.pdf?distance=0`;
    const [household] = await labelPages(url);
    expect(household!.match(/9 Far Rd/g)).toHaveLength(1);
    // One label's lines, one under the other (the next label is beside them on the same lines).
    expect(household).toMatch(/^ *SMITH, JOHN .*\n *SMITH, MARY .*\n *9 Far Rd /m);
    expect(flat(household!)).toContain('Abutters within 0 ft of 9 Elm St (Map/Lot A-5): 2 owner labels.');
    expect(flat(household!)).toContain(
      "Measured from this parcel's boundary, using the town's parcel map of",
    );
    const [each] = await labelPages(`${url}&perOwner=1`);
    expect(each!.match(/9 Far Rd/g)).toHaveLength(2);
    expect(flat(each!)).toContain('3 owner labels');
  });

  it('lists every record of a roll without owner names, and offers Current Occupant labels for them', async () => {
    const client = await buildClient(ctx.db, { city: 'Cambridge', stateProvince: 'Massachusetts' });
    const { client: published } = await publishRoll(
      ctx.db,
      client.id,
      ROLL.map(({ Owners: _owners, ...r }) => r),
    );
    await importParcelLayer(ctx.db, featuresOfJson(lotRow(LOTS), 'test'), {
      clientId: client.id,
      rollId: published.activeRollId,
      key: 'MapLot',
      fileName: 'lots.geojson',
      dryRun: false,
    });
    const csv = (await get(`/api/abutters/${client.id}/101/abutters.csv?distance=300`)).body.split('\r\n');
    expect(csv.slice(4, 8)).toEqual([
      '0,"102","A-2","3 Elm St, Unit 1","","","","","","","",""',
      '0,"103","A-2","3 Elm St, Unit 2","","","","","","","",""',
      '200,"104","A-4","7 Elm St","","","","","","","",""',
      '300,"105","A-5","9 Elm St","","","","","","","",""',
    ]);

    const url = `/api/abutters/${client.id}/101/abutters.pdf?distance=300`;
    const [none] = await labelPages(url);
    expect(none).not.toContain('Elm St,');
    expect(flat(none!)).toContain('0 owner labels, 4 records with no mailing address have no label.');
    const [occupants] = await labelPages(`${url}&occupants=1`);
    expect(occupants!.match(/Current Occupant/g)).toHaveLength(4 + 1);
    expect(occupants).toMatch(/Current Occupant\s+Current Occupant\s+Current Occupant/);
    expect(occupants).toMatch(/3 Elm St, Unit 1\s+3 Elm St, Unit 2\s+7 Elm St/);
    expect(occupants).toContain('Cambridge, MA');
    expect(flat(occupants!)).toContain('0 owner labels, 4 Current Occupant labels.');
  });
});

/** A labels PDF from the API, read back with pdftotext, page by page. */
async function labelPages(url: string): Promise<string[]> {
  const res = await get(url);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'opp-labels-')), 'labels.pdf');
  fs.writeFileSync(file, res.rawPayload);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  fs.rmSync(path.dirname(file), { recursive: true });
  return text.split('\f').filter((p) => p.trim());
}

/** A page's text with its spacing made single (pdftotext -layout spaces columns out). */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('API docs', () => {
  it('list every map and abutters call with its response schema, and say how distances are measured', async () => {
    const doc = (await get('/api/openapi.json')).json<{
      paths: Record<string, { get?: { description?: string; responses?: Record<string, unknown> } }>;
    }>();
    for (const p of [
      '/api/parcels/{clientId}/{account}',
      '/api/parcels/{clientId}',
      '/api/abutters/{clientId}/{account}',
      '/api/abutters/{clientId}/{account}/abutters.csv',
      '/api/abutters/{clientId}/{account}/abutters.pdf',
    ]) {
      expect(doc.paths[p]?.get?.responses, p).toHaveProperty('200');
      expect(doc.paths[p]?.get?.responses, p).toHaveProperty('404');
    }
    expect(doc.paths['/api/abutters/{clientId}/{account}']!.get!.description).toMatch(
      /transverse Mercator projection of the GRS 80 ellipsoid centred on the middle of the town/,
    );
  });
});
