import { once } from 'node:events';
import zlib from 'node:zlib';
import { zip as zipShapefile } from '@mapbox/shp-write';
import { describe, expect, it } from 'vitest';
import type {
  AbuttersResponse,
  ParcelFeature,
  ParcelLayerHistory,
  ParcelLayerReport,
  PropertyRecordInput,
} from '@opp/contracts';
import { authHeader, buildClient, buildUser, publishRoll } from '../../../test/factories.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { lotRow } from '../../../test/parcel-layers.ts';
import { multipart } from '../../../test/security/world.ts';
import { featuresOfJson } from './parcel-files.ts';
import { importParcelLayer } from './parcel-import.ts';
import { parcelsRepository } from './parcels.repository.ts';

/*
 * Publishing a parcel layer without surprises (issue 45) and files that cannot crash the portal
 * (issue 46): what is refused, what is chosen, where condominium units go, and what stray features do.
 */

const ctx = setupTestApp();

const record = (Account: string, MapLot: string, StreetNumber = '1'): PropertyRecordInput => ({
  Account,
  MapLot,
  StreetNumber,
  StreetName: 'ELM ST',
  Owners: [
    { OwnerName: `OWNER ${Account}`, Address1: '1 POST RD', City: 'X', State: 'ME', ZipCode: '04330' },
  ],
});

async function town(records: PropertyRecordInput[]) {
  const client = await buildClient(ctx.db);
  const { client: published } = await publishRoll(ctx.db, client.id, records);
  return published;
}

const provider = async () => authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 1 })).id);

async function upload(
  clientId: number,
  data: Buffer | object,
  fileName: string,
  query = '',
  as?: Record<string, string>,
) {
  const body = multipart([
    {
      name: 'file',
      filename: fileName,
      type: 'application/octet-stream',
      data: Buffer.isBuffer(data) ? data : Buffer.from(JSON.stringify(data)),
    },
  ]);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/parcels/${clientId}${query}`,
    payload: body.payload,
    headers: { ...body.headers, ...(as ?? (await provider())) },
  });
}

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

/** A layer whose features carry several properties, as GIS exports do. */
function layerWith(rows: Record<string, string | number>[]) {
  const lots = lotRow(rows.map((_, i) => `x${i}`));
  lots.features.forEach((f, i) => (f.properties = rows[i]!));
  return lots;
}

describe('a layer that matches no record', () => {
  it('is refused, on a dry run and for real, naming the properties the file has and the key it tried', async () => {
    const client = await town([record('1', '12-3'), record('2', '12-4'), record('3', '12-5')]);
    const live = await importParcelLayer(ctx.db, featuresOfJson(lotRow(['12-3', '12-4', '12-5']), 'x'), {
      clientId: client.id,
      rollId: client.activeRollId,
      key: 'MapLot',
      fileName: 'live.geojson',
      dryRun: false,
    });
    expect(live.recordsMatched).toBe(3);
    // Cambridge-like: the map/lot is in ML, and the GIS id matches nothing.
    const layer = layerWith([
      { GIS_ID: '0012 0003', ML: '12-3', UYEAR: 0 },
      { GIS_ID: '0012 0004', ML: '12-4', UYEAR: 0 },
      { GIS_ID: '0012 0005', ML: '12-5', UYEAR: 0 },
    ]);
    const expected = {
      Property: 'GIS_ID',
      RecordsMatched: 0,
      FileProperties: ['GIS_ID', 'ML', 'UYEAR'],
      Suggestion: { Property: 'ML', RecordsJoined: 3 },
      Problems: {
        Count: 1,
        First: [
          'No record\'s Map/Lot matches the file: its key was read from the feature property "GIS_ID" (on 3 of 3 ' +
            'features). The file\'s features have "GIS_ID", "ML", "UYEAR". "ML" matches 3 records: use it as ' +
            'the property.',
        ],
      },
      Replaced: false,
    };
    const dry = await upload(client.id, layer, 'gis.geojson', '?property=GIS_ID&dryRun=1');
    expect(dry.statusCode).toBe(200);
    expect(dry.json<ParcelLayerReport>()).toMatchObject(expected);
    const real = await upload(client.id, layer, 'gis.geojson', '?property=GIS_ID');
    expect(real.statusCode).toBe(422);
    expect(real.json<ParcelLayerReport>()).toMatchObject(expected);
    // The live layer is as it was, and the map still answers.
    expect(await parcelsRepository.findLayer(ctx.db, client.id)).toMatchObject({
      id: live.layerId,
      fileName: 'live.geojson',
      shapeCount: 3,
    });
    expect((await get(`/api/parcels/${client.id}/2`)).json<ParcelFeature>().properties.MapLot).toBe('12-4');

    // A property no feature has, and a file without features, are refused the same way.
    const missing = await upload(client.id, layer, 'gis.geojson', '?property=MAP_LOT');
    expect(missing.statusCode).toBe(422);
    expect(missing.json<ParcelLayerReport>().Problems.First[0]).toContain(
      'read from the feature property "MAP_LOT" (which no feature has)',
    );
    const empty = await upload(client.id, { type: 'FeatureCollection', features: [] }, 'empty.geojson');
    expect(empty.statusCode).toBe(422);
    expect(empty.json<ParcelLayerReport>().Problems.First[0]).toContain(
      "The file's features have no properties",
    );
    expect((await parcelsRepository.findLayer(ctx.db, client.id))?.id).toBe(live.layerId);
  });
});

describe('the key property, when none is named', () => {
  it('is the one that joins the most records, common names first; the report names it and the runner-up', async () => {
    const client = await town([
      record('1', '5-1'),
      record('2', '5-2'),
      record('3', '5-3'),
      record('4', '5-4'),
      record('5', '5-5'),
    ]);
    const layer = layerWith([
      { OBJECTID: 1, MAP_LOT: '5-1', PARCEL_NO: '5-1' },
      { OBJECTID: 2, MAP_LOT: '5-2', PARCEL_NO: '5-2' },
      { OBJECTID: 3, MAP_LOT: '', PARCEL_NO: '5-3' },
      { OBJECTID: 4, MAP_LOT: '', PARCEL_NO: '5-4' },
      { OBJECTID: 5, MAP_LOT: '', PARCEL_NO: '5-5' },
    ]);
    const report = await upload(client.id, layer, 'lots.geojson');
    expect(report.statusCode).toBe(200);
    expect(report.json<ParcelLayerReport>()).toMatchObject({
      Property: 'PARCEL_NO',
      PropertyChosen: true,
      RecordsMatched: 5,
      RunnerUp: { Property: 'MAP_LOT', RecordsJoined: 2 },
      Replaced: true,
    });
    // A common name that joins every record is taken, ahead of another that joins as many.
    const second = await upload(
      client.id,
      layerWith(['5-1', '5-2', '5-3', '5-4', '5-5'].map((m) => ({ lot: m, ml: m }))),
      'lots.geojson',
      '?dryRun=1',
    );
    expect(second.json<ParcelLayerReport>()).toMatchObject({
      Property: 'ml',
      PropertyChosen: true,
      RunnerUp: null,
      RecordsMatched: 5,
    });
  });
});

describe('records whose map/lot has no shape of their own', () => {
  it('sit on the parcel of their longest map/lot prefix with a shape: on the map, in the report and in abutters lists', async () => {
    const client = await town([
      record('10', '4-23', '10'),
      record('11', '4-23-906', '10'),
      record('12', '4-23-907', '10'),
      record('20', '3-C-3', '20'),
      record('21', '3-C_3_86', '20'),
      record('30', '4-24', '30'),
      // A map sheet is no parcel: `4-99` does not sit on `4`.
      record('40', '4-99', '40'),
    ]);
    const layer = lotRow(['4-23', '3-C-3', '4-24', '4']);
    const report = await upload(client.id, layer, 'lots.geojson', '?property=MapLot');
    expect(report.statusCode).toBe(200);
    expect(report.json<ParcelLayerReport>()).toMatchObject({
      RecordsMatched: 6,
      RecordsOnMasterParcel: {
        Count: 3,
        First: [
          'Account 11 (Map/Lot 4-23-906) on parcel 4-23',
          'Account 12 (Map/Lot 4-23-907) on parcel 4-23',
          'Account 21 (Map/Lot 3-C_3_86) on parcel 3-C-3',
        ],
      },
      RecordsWithoutShape: { Count: 1, First: ['Account 40 (Map/Lot 4-99)'] },
      Replaced: true,
    });
    const unit = (await get(`/api/parcels/${client.id}/11`)).json<ParcelFeature>();
    expect(unit.properties).toEqual({
      Account: '11',
      MapLot: '4-23-906',
      Location: '10 ELM ST',
      Records: 3,
      OnParcel: '4-23',
    });
    expect((await get(`/api/parcels/${client.id}/21`)).json<ParcelFeature>().properties.OnParcel).toBe(
      '3-C-3',
    );
    // The master parcel's own record is on its own shape.
    expect(
      (await get(`/api/parcels/${client.id}/10`)).json<ParcelFeature>().properties.OnParcel,
    ).toBeUndefined();
    expect((await get(`/api/parcels/${client.id}/40`)).statusCode).toBe(404);
    // The units' owners are among the abutters of the parcel next door.
    const abutters = (await get(`/api/abutters/${client.id}/20?distance=0`)).json<AbuttersResponse>();
    expect(abutters.Abutters.map((a) => [a.Account, a.DistanceFeet])).toEqual([
      ['21', 0],
      ['10', 0],
      ['11', 0],
      ['12', 0],
      ['30', 0],
    ]);
  });
});

describe('a layer keyed by MassGIS LOC_ID', () => {
  it('joins every record carrying that LOC_ID, condominium units included, with the LOC_ID property chosen', async () => {
    const withLocId = (r: PropertyRecordInput, locId: string): PropertyRecordInput => ({
      ...r,
      Reference1: { Description: 'MassGIS LOC_ID', UserDefinedValue: locId },
    });
    // MassGIS's map/lots (`104-55-1`) name no polygon; the units share their building's LOC_ID.
    const client = await town([
      withLocId(record('1', '104-54', '10'), 'F_764_2955'),
      withLocId(record('2', '104-55-1', '20'), 'F_765_2960'),
      withLocId(record('3', '104-55-2', '20'), 'F_765_2960'),
      withLocId(record('4', '104-56', '30'), 'F_766_2965'),
      record('5', '104-57', '40'),
    ]);
    const layer = layerWith([
      { MAP_PAR_ID: 'A', LOC_ID: 'F_764_2955' },
      { MAP_PAR_ID: 'B', LOC_ID: 'F_765_2960' },
      { MAP_PAR_ID: 'C', LOC_ID: 'F_766_2965' },
    ]);

    // Keyed by map/lot, nothing joins: refused, and the map stays empty.
    const byMapLot = await upload(client.id, layer, 'L3_TAXPAR_POLY.geojson');
    expect(byMapLot.statusCode).toBe(422);
    expect((await get(`/api/parcels/${client.id}/2`)).statusCode).toBe(404);

    const report = await upload(client.id, layer, 'L3_TAXPAR_POLY.geojson', '?key=LocId');
    expect(report.statusCode).toBe(200);
    expect(report.json<ParcelLayerReport>()).toMatchObject({
      Key: 'LocId',
      Property: 'LOC_ID',
      PropertyChosen: true,
      RecordsMatched: 4,
      RecordsWithoutShape: { Count: 1, First: ['Account 5 (LOC_ID none)'] },
      ShapesWithoutRecord: { Count: 0 },
      Replaced: true,
    });
    // The units are on the map and among the abutters of the parcel next door.
    const unit = (await get(`/api/parcels/${client.id}/3`)).json<ParcelFeature>();
    expect(unit.properties).toMatchObject({ Account: '3', MapLot: '104-55-2', Records: 2 });
    const abutters = (await get(`/api/abutters/${client.id}/1?distance=0`)).json<AbuttersResponse>();
    expect(abutters.Abutters.map((a) => a.Account)).toEqual(['2', '3']);

    // A later layer keyed by map/lot is measured against today's LOC_ID map: losing it needs confirming.
    const loss = await upload(client.id, lotRow(['104-54']), 'lots.geojson', '?property=MapLot');
    expect(loss.json<ParcelLayerReport>()).toMatchObject({
      Loss: { RecordsOnMapNow: 4, RecordsOnMapAfter: 1 },
      NeedsConfirmation: true,
      Replaced: false,
    });
  });
});

describe('a feature far from the rest of the layer', () => {
  // P-1 and P-4 are 131.5 ft wide with two empty lots between them: 263 ft apart.
  const near = () => lotRow(['P-1', null, null, 'P-4'], { width: 131.5 });
  const stray = {
    type: 'Feature' as const,
    properties: { MapLot: 'P-9' },
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [110, 0],
          [110.001, 0],
          [110.001, 0.001],
          [110, 0.001],
          [110, 0],
        ],
      ],
    },
  };
  const roll = [record('1', 'P-1'), record('4', 'P-4'), record('9', 'P-9')];
  const neighbours = async (clientId: number) =>
    (await get(`/api/abutters/${clientId}/1?distance=300`))
      .json<AbuttersResponse>()
      .Abutters.map((a) => [a.Account, a.DistanceFeet]);

  it('is set aside at import and reported by name; distances are unmoved', async () => {
    const client = await town(roll);
    const layer = near();
    layer.features.push(stray);
    const report = await upload(client.id, layer, 'lots.geojson', '?property=MapLot');
    expect(report.json<ParcelLayerReport>()).toMatchObject({
      Shapes: 2,
      Warnings: {
        Count: 1,
        First: [
          expect.stringMatching(
            /^feature 3 \(MapLot P-9\) lies [\d,]+ miles from the rest of the layer: set aside$/,
          ),
        ],
      },
      RecordsWithoutShape: { Count: 1, First: ['Account 9 (Map/Lot P-9)'] },
    });
    expect(await neighbours(client.id)).toEqual([['4', 263]]);
  });

  it('stored all the same, does not move the projection: it is centred on the shapes records join', async () => {
    const client = await town(roll);
    const shapes = [...near().features, stray].map((f) => {
      const key = f.properties.MapLot as string;
      const coordinates = (f.geometry as { coordinates: unknown }).coordinates;
      return { key, keyCode: key.toLowerCase(), coordinates: JSON.stringify([coordinates]) };
    });
    await ctx.db.transaction((tx) =>
      parcelsRepository.replaceLayer(
        tx,
        { clientId: client.id, keyField: 'MapLot', fileName: 'old.geojson' },
        shapes,
      ),
    );
    expect(await neighbours(client.id)).toEqual([['4', 263]]);
  });
});

describe('the live layer and the layers before it', () => {
  it('say which file is live, with its shapes, when and by whom it was loaded', async () => {
    const client = await town([record('1', '7-1'), record('2', '7-2')]);
    const user = await buildUser(ctx.db, { roleId: 1, username: 'mapper' });
    const headers = await authHeader(ctx.app, user.id);
    const history = async () =>
      (await ctx.app.inject({ url: `/api/parcel-layers/${client.id}`, headers })).json<ParcelLayerHistory>();
    expect(await history()).toEqual({ Live: null, History: [] });
    expect((await upload(client.id, lotRow(['7-1', '7-2']), 'first.geojson', '', headers)).statusCode).toBe(
      200,
    );
    const second = await upload(client.id, lotRow(['7-1']), 'second.geojson', '?confirmLoss=1', headers);
    expect(second.statusCode).toBe(200);
    // Refused and checked files are not layers.
    await upload(client.id, lotRow(['0-0']), 'wrong.geojson', '', headers);
    await upload(client.id, lotRow(['7-1', '7-2']), 'checked.geojson', '?dryRun=1', headers);
    const entry = (FileName: string, Shapes: number) => ({
      FileName,
      Key: 'MapLot',
      Shapes,
      ImportedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      ImportedBy: 'mapper',
    });
    expect(await history()).toEqual({
      Live: entry('second.geojson', 1),
      History: [entry('second.geojson', 1), entry('first.geojson', 2)],
    });
  });
});

// ---- Files that must be refused with a message, not a crash (issue 46) -----------------------------

/** A zip of one stored entry whose header says `declared` bytes, holding `content` deflated. */
function zipOf(fileName: string, deflated: Buffer, declared: number, crc = 0): Buffer {
  const name = Buffer.from(fileName);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(deflated.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(deflated.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + deflated.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, name, deflated, central, name, end]);
}

/** `megabytes` of zeros, deflated (a few hundred kilobytes), streamed so the test holds no more. */
async function deflatedZeros(megabytes: number): Promise<Buffer> {
  const deflate = zlib.createDeflateRaw({ level: 1 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++) if (!deflate.write(zeros)) await once(deflate, 'drain');
  deflate.end();
  await once(deflate, 'end');
  return Buffer.concat(out);
}

/** A transverse Mercator .prj (metres from 72° W, 42.5° N): a position 100,000 km out has no longitude. */
const TRANSVERSE_MERCATOR =
  'PROJCS["Test TM",GEOGCS["NAD83",DATUM["North_American_Datum_1983",SPHEROID["GRS 1980",6378137,298.257222101]],' +
  'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],' +
  'PARAMETER["latitude_of_origin",42.5],PARAMETER["central_meridian",-72],PARAMETER["scale_factor",0.9999],' +
  'PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1]]';

describe('files that are not what they claim', () => {
  it('answers 400 with a clear message for malformed TopoJSON', async () => {
    const client = await town([record('1', '1-1')]);
    const topology = (
      objects: unknown,
      arcs: unknown = [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    ) => ({
      type: 'Topology',
      arcs,
      objects,
    });
    const polygon = (arcs: unknown) => ({ type: 'Polygon', arcs, properties: { MapLot: '1-1' } });
    // Ten thousand collections deep, written out as text (JSON.stringify itself would overflow).
    const deep =
      '{"type":"Topology","arcs":[[[0,0],[1,0],[1,1],[0,0]]],"objects":{"lots":' +
      '{"type":"GeometryCollection","geometries":['.repeat(10_000) +
      JSON.stringify(polygon([[0]])) +
      ']}'.repeat(10_000) +
      '}}';
    const cases: [object | Buffer, RegExp][] = [
      [Buffer.from(deep), /geometry collections are nested more than 16 deep/],
      [topology({ lots: polygon([[7]]) }), /arc 7 is referenced, but the topology has 1 arcs/],
      [topology({ lots: polygon([[-9]]) }), /arc 8 is referenced, but the topology has 1 arcs/],
      [topology({ lots: polygon('abc') }), /a Polygon's arcs are not a list/],
      [topology({ lots: polygon([['abc']]) }), /an arc reference \(abc\) is not a whole number/],
      [topology({ lots: polygon([[0]]) }, 'abc'), /it has no list of arcs/],
    ];
    for (const [file, message] of cases) {
      const answer = await upload(client.id, file, 'bad.topojson', '?dryRun=1');
      expect(answer.statusCode, JSON.stringify(answer.json())).toBe(400);
      expect(answer.json().fields[0].message).toMatch(/^bad\.topojson is not a usable TopoJSON topology: /);
      expect(answer.json().fields[0].message).toMatch(message);
    }
    // One long arc reused by hundreds of polygons would spell out millions of positions.
    const long = Array.from({ length: 50_000 }, (_, i) => [i % 2, Math.floor(i / 2)]);
    const reused = topology(
      { lots: { type: 'GeometryCollection', geometries: Array.from({ length: 200 }, () => polygon([[0]])) } },
      [long],
    );
    const answer = await upload(client.id, reused, 'reused.topojson', '?dryRun=1');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().fields[0].message).toMatch(
      /reuse its arcs far more often than parcels share boundaries/,
    );
  });

  it('names the feature whose Shapefile coordinates are not numbers (422), with a .prj', async () => {
    const client = await town([record('1', 'A-1')]);
    const bytes = await zipShapefile<'nodebuffer'>(
      {
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { MapLot: 'A-1' },
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [700000, 2900000],
                  [700100, 2900000],
                  [NaN, 2900100],
                  [700000, 2900000],
                ],
              ],
            },
          },
        ],
      } as never,
      {
        prj: 'PROJCS["NAD83 / Massachusetts Mainland",GEOGCS["NAD83",DATUM["North_American_Datum_1983",SPHEROID["GRS 1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic_2SP"],PARAMETER["standard_parallel_1",42.68333333333333],PARAMETER["standard_parallel_2",41.71666666666667],PARAMETER["latitude_of_origin",41],PARAMETER["central_meridian",-71.5],PARAMETER["false_easting",200000],PARAMETER["false_northing",750000],UNIT["metre",1]]',
        outputType: 'nodebuffer',
        compression: 'DEFLATE',
      },
    );
    const answer = await upload(client.id, bytes, 'nan.zip');
    expect(answer.statusCode).toBe(422);
    expect(answer.json<ParcelLayerReport>().Problems.First[0]).toBe(
      'feature 1 (MapLot A-1) has a position that is not a pair of numbers',
    );
  });

  it('names the feature whose position its .prj cannot project (422), and changes nothing', async () => {
    const client = await town([record('1', 'A-1'), record('2', 'A-2')]);
    const square = (x: number, y: number) => [
      [
        [x, y],
        [x + 100, y],
        [x + 100, y + 100],
        [x, y],
      ],
    ];
    const bytes = await zipShapefile<'nodebuffer'>(
      {
        type: 'FeatureCollection',
        features: [square(0, 0), square(1e8, 1e8)].map((coordinates, i) => ({
          type: 'Feature',
          properties: { MapLot: `A-${i + 1}` },
          geometry: { type: 'Polygon', coordinates },
        })),
      } as never,
      { prj: TRANSVERSE_MERCATOR, outputType: 'nodebuffer', compression: 'DEFLATE' },
    );
    const answer = await upload(client.id, bytes, 'far.zip');
    expect(answer.statusCode).toBe(422);
    expect(answer.json<ParcelLayerReport>().Problems.First).toEqual([
      "feature 2 (MapLot A-2) has a position its .prj cannot turn into longitude/latitude (100000000, 100000000): is the .prj the layer's own?",
    ]);
    expect(await parcelsRepository.findLayer(ctx.db, client.id)).toBeNull();
  });

  it('refuses a zip bomb fast, before or while inflating it, and keeps answering', async () => {
    const client = await town([record('1', 'A-1')]);
    const bomb = await deflatedZeros(300);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const started = performance.now();
    // What the zip says it holds: refused before a byte is inflated.
    const honest = await upload(client.id, zipOf('bomb.shp', bomb, 300 * 1024 * 1024), 'bomb.zip');
    expect(honest.statusCode).toBe(400);
    expect(honest.json().fields[0].message).toBe('bomb.zip unpacks to more than 256 MB');
    // A zip that understates what it holds is refused as soon as it holds more.
    const lying = await upload(client.id, zipOf('bomb.shp', bomb, 1000), 'lying.zip');
    expect(lying.statusCode).toBe(400);
    expect(lying.json().fields[0].message).toMatch(/^lying\.zip is not a readable zip: /);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect((await get('/readyz')).statusCode).toBe(200);
  });
});
