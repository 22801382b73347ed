import fs from 'node:fs';
import { zip as zipShapefile } from '@mapbox/shp-write';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../db/database.ts';
import { cliHarness } from '../../test/cli-harness.ts';
import { lotRow } from '../../test/parcel-layers.ts';

/*
 * `portal parcels import` run in-process as a person runs it (see cli.test.ts): embedded runs use a
 * temporary DATA_DIR, PostgreSQL runs (TEST_DATABASE_URL) a fresh database through DATABASE_URL.
 */

const { portal, withDb, file } = cliHarness('parcels-cli');

const layerOf = (city: string) =>
  withDb(({ db }) =>
    queryRows<{ file_name: string; key_field: string; shapes: number }>(
      db,
      sql`select l.file_name, l.key_field,
                 (select count(*)::int from parcel_shapes s where s.layer_id = l.id) as shapes
            from parcel_layers l join clients c on c.id = l.client_id where c.city = ${city}`,
    ),
  );

describe('portal parcels import', () => {
  it('explains itself, and says what is wrong with how it was called', async () => {
    const help = await portal(['parcels', 'import', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      'Usage: portal parcels import --state STATE --city CITY [--key MapLot|Account|LocId]',
    );
    expect((await portal(['help'])).stdout).toContain('parcels import --state S --city C FILE');
    const noFile = await portal(['parcels', 'import', '--state', 'ME', '--city', 'Naples']);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/^portal parcels: FILE is required/);
    const badKey = await portal([
      'parcels',
      'import',
      '--state',
      'ME',
      '--city',
      'Naples',
      '--key',
      'Owner',
      'x',
    ]);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/--key must be MapLot, Account or LocId, got "Owner"/);
  });

  it('prints the join report; a dry run writes nothing; a bad file changes nothing; a good one replaces the map', async () => {
    expect((await portal(['client', 'add', '--state', 'ME', '--city', 'Naples'])).code).toBe(0);
    const roll = file(
      'naples.jsonl',
      ['1-1', '1-2', '1-3', '9-9']
        .map((m, i) =>
          JSON.stringify({ Account: String(i + 1), MapLot: m, Owners: [{ OwnerName: `OWNER ${i}` }] }),
        )
        .join('\n'),
    );
    expect((await portal(['import', '--state', 'ME', '--city', 'Naples', roll])).code).toBe(0);
    const layer = lotRow(['1.1', '1-2', '1 3', '7-7'], { property: 'PARCEL_ID' });
    // An open ring, closed with a warning.
    (layer.features[0]!.geometry as { coordinates: number[][][] }).coordinates[0]!.pop();
    const good = file('naples.geojson', layer);

    const dry = await portal([
      'parcels',
      'import',
      '--state',
      'ME',
      '--city',
      'Naples',
      '--property',
      'PARCEL_ID',
      '--dry-run',
      good,
    ]);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout.split('\n')).toEqual([
      'Features read: 4',
      'Parcel shapes: 4',
      'Records matched: 3',
      'Records without a shape: 1',
      'Shapes without a record: 1',
      'Warnings: 1',
      '',
      'Warnings:',
      '  feature 1 (PARCEL_ID 1.1): outer ring was not closed: closed',
      '',
      'Records without a shape:',
      '  Account 4 (Map/Lot 9-9)',
      '',
      'Shapes without a record:',
      '  PARCEL_ID 7-7',
      '',
      "Dry run: Naples, Maine's parcel map was not changed.",
      '',
    ]);
    expect(await layerOf('Naples')).toEqual([]);

    const imported = await portal([
      'parcels',
      'import',
      '--state',
      'Maine',
      '--city',
      'naples',
      '--property',
      'PARCEL_ID',
      good,
    ]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(
      /^Imported 4 parcel shapes into Naples, Maine in \d+\.\d s; they replace its previous map\.$/m,
    );
    expect(await layerOf('Naples')).toEqual([
      { file_name: 'naples.geojson', key_field: 'MapLot', shapes: 4 },
    ]);

    const bad = structuredClone(layer);
    bad.features.push({
      type: 'Feature',
      properties: { PARCEL_ID: '8-8' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
    });
    (bad.features[1]!.geometry as { coordinates: number[][][] }).coordinates[0]![1] = [712345.5, 2960000.25];
    const rejected = await portal([
      'parcels',
      'import',
      '--state',
      'ME',
      '--city',
      'Naples',
      '--property',
      'PARCEL_ID',
      file('bad.geojson', bad),
    ]);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain(
      '  feature 2 (PARCEL_ID 1-2) has coordinates outside WGS 84 longitude/latitude (712345.5, 2960000.25)',
    );
    expect(rejected.stderr).toContain('  feature 5 (PARCEL_ID 8-8) is a LineString, not a polygon');
    expect(rejected.stderr).toMatch(
      /portal parcels import: bad\.geojson was rejected: 2 problems\. Nothing was changed\.\n$/,
    );
    expect(await layerOf('Naples')).toEqual([
      { file_name: 'naples.geojson', key_field: 'MapLot', shapes: 4 },
    ]);

    const notJson = await portal([
      'parcels',
      'import',
      '--state',
      'ME',
      '--city',
      'Naples',
      file('notes.txt', 'hello'),
    ]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(
      /^portal parcels: notes\.txt is neither JSON \(GeoJSON, TopoJSON\) nor a zipped Shapefile/,
    );

    const audit = await withDb(({ db }) =>
      queryRows<{ action: string; actor_username: string }>(
        db,
        sql`select action, actor_username from audit_log where action = 'parcels.import'`,
      ),
    );
    expect(audit).toEqual([{ action: 'parcels.import', actor_username: expect.stringMatching(/^cli:/) }]);
  }, 240_000);

  it('refuses a layer that matches nothing, and one that loses records unless --confirm-loss', async () => {
    expect((await portal(['client', 'add', '--state', 'ME', '--city', 'Casco'])).code).toBe(0);
    const roll = file(
      'casco.jsonl',
      ['1-1', '1-2', '1-3', '1-4']
        .map((m, i) =>
          JSON.stringify({ Account: String(i + 1), MapLot: m, Owners: [{ OwnerName: `O ${i}` }] }),
        )
        .join('\n'),
    );
    expect((await portal(['import', '--state', 'ME', '--city', 'Casco', roll])).code).toBe(0);
    const run = (...args: string[]) =>
      portal(['parcels', 'import', '--state', 'ME', '--city', 'Casco', ...args]);
    // No property named: the one that joins the most records is read, and the report says so.
    const whole = lotRow(['1-1', '1-2', '1-3', '1-4'], { property: 'MAP_LOT' });
    const first = await run(file('whole.geojson', whole));
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Key property: MAP_LOT \(chosen: it matches 4 records\)$/m);

    const wrong = lotRow(['0001', '0002', '0003', '0004'], { property: 'GIS_ID' });
    for (const dry of [['--dry-run'], []]) {
      const refused = await run('--property', 'GIS_ID', ...dry, file('wrong.geojson', wrong));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `No record's Map/Lot matches the file: its key was read from the feature property "GIS_ID" (on 4 of 4 features). The file's features have "GIS_ID".`,
      );
      expect(refused.stderr).toMatch(/wrong\.geojson was rejected: 1 problem\. Nothing was changed\.\n$/);
    }
    expect(await layerOf('Casco')).toEqual([{ file_name: 'whole.geojson', key_field: 'MapLot', shapes: 4 }]);

    // Three of the four records would lose their shape.
    const smaller = file('smaller.geojson', lotRow(['1-1'], { property: 'MAP_LOT' }));
    const lossy = await run(smaller);
    expect(lossy.code).toBe(1);
    expect(lossy.stderr).toContain(
      'Records on the map: 4 today (whole.geojson), 1 with this file: 3 fewer (75%).',
    );
    expect(lossy.stderr).toContain(
      'Records that would lose their shape:\n  Account 2 (Map/Lot 1-2)\n  Account 3 (Map/Lot 1-3)\n  Account 4 (Map/Lot 1-4)',
    );
    expect(lossy.stderr).toMatch(
      /smaller\.geojson would leave 3 fewer records on Casco, Maine's map\. Nothing was changed\. To replace it anyway, run again with --confirm-loss\.\n$/,
    );
    expect(await layerOf('Casco')).toEqual([{ file_name: 'whole.geojson', key_field: 'MapLot', shapes: 4 }]);
    expect((await run('--dry-run', '--confirm-loss', smaller)).code).toBe(0);
    const confirmed = await run('--confirm-loss', smaller);
    expect(confirmed.code).toBe(0);
    expect(await layerOf('Casco')).toEqual([
      { file_name: 'smaller.geojson', key_field: 'MapLot', shapes: 1 },
    ]);
  }, 240_000);

  it('names the features of a Shapefile whose positions are not numbers or cannot be projected by its .prj', async () => {
    expect((await portal(['client', 'add', '--state', 'ME', '--city', 'Bridgton'])).code).toBe(0);
    const roll = file(
      'bridgton.jsonl',
      ['1-1', '1-2', '1-3']
        .map((m, i) =>
          JSON.stringify({ Account: String(i + 1), MapLot: m, Owners: [{ OwnerName: `O ${i}` }] }),
        )
        .join('\n'),
    );
    expect((await portal(['import', '--state', 'ME', '--city', 'Bridgton', roll])).code).toBe(0);
    // Metres from 72° W, 42.5° N: the second square has a corner that is not a number, the third lies
    // 100,000 km out, where the projection has no longitude.
    const prj =
      'PROJCS["Test TM",GEOGCS["NAD83",DATUM["North_American_Datum_1983",SPHEROID["GRS 1980",6378137,298.257222101]],' +
      'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],' +
      'PARAMETER["latitude_of_origin",42.5],PARAMETER["central_meridian",-72],PARAMETER["scale_factor",0.9999],' +
      'PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1]]';
    const square = (x: number, y: number, corner = x + 100) => [
      [
        [x, y],
        [corner, y],
        [x + 100, y + 100],
        [x, y],
      ],
    ];
    const zipped = await zipShapefile<'nodebuffer'>(
      {
        type: 'FeatureCollection',
        features: [square(0, 0), square(200, 0, NaN), square(1e8, 1e8)].map((coordinates, i) => ({
          type: 'Feature',
          properties: { MAP_LOT: `1-${i + 1}` },
          geometry: { type: 'Polygon', coordinates },
        })),
      } as never,
      { prj, outputType: 'nodebuffer', compression: 'DEFLATE' },
    );
    const layer = file('bridgton.zip', '');
    fs.writeFileSync(layer, zipped);
    const refused = await portal(['parcels', 'import', '--state', 'ME', '--city', 'Bridgton', layer]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('feature 2 (MAP_LOT 1-2) has a position that is not a pair of numbers');
    expect(refused.stderr).toContain(
      "feature 3 (MAP_LOT 1-3) has a position its .prj cannot turn into longitude/latitude (100000000, 100000000): is the .prj the layer's own?",
    );
    expect(refused.stderr).toMatch(/bridgton\.zip was rejected: 2 problems\. Nothing was changed\.\n$/);
    expect(await layerOf('Bridgton')).toEqual([]);
  }, 240_000);
});
