import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import proj4 from 'proj4';
import type { PropertyRecordInput } from '@opp/contracts';
import type { Db } from '../src/db/database.ts';
import { featuresOfJson, readParcelFile } from '../src/features/parcels/parcel-files.ts';
import { importParcelLayer, type ParcelImportReport } from '../src/features/parcels/parcel-import.ts';
import { parcelsRepository } from '../src/features/parcels/parcels.repository.ts';
import { clientsRepository } from '../src/features/clients/clients.repository.ts';
import { buildClient, publishRoll } from './factories.ts';

/*
 * Parcel layers for tests: a row of square lots laid out in feet (hand-checkable distances), the test
 * town's layer for the security tests, and Cambridge's real layer and roll (../shared, read-only).
 */

type Feature = { type: 'Feature'; properties: Record<string, unknown>; geometry: unknown };

/** An azimuthal equidistant projection (not the server's transverse Mercator), in feet, to lay lots out on. */
function feetAround(lon0: number, lat0: number) {
  const c = proj4(
    'EPSG:4326',
    `+proj=aeqd +lat_0=${lat0} +lon_0=${lon0} +x_0=0 +y_0=0 +ellps=WGS84 +units=ft +no_defs`,
  );
  return (x: number, y: number) => c.inverse([x, y]) as [number, number];
}

/** A rectangle [x0, y0]–[x1, y1] in feet as a closed longitude/latitude ring (corners only). */
function rectangle(
  at: (x: number, y: number) => [number, number],
  x0: number,
  y0: number,
  x1: number,
  y1: number,
) {
  return [at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1), at(x0, y0)];
}

export const ROW_ORIGIN = { lon: -69.77, lat: 44.31 };

/**
 * Lots `width` ft wide (default 100) and 150 ft deep, side by side along a street from west to east, lot
 * i (0-based) from x = width·i to width·(i + 1), keyed by `keys[i]` (a null key leaves a gap).
 */
export function lotRow(keys: (string | null)[], { property = 'MapLot', width = 100 } = {}) {
  const at = feetAround(ROW_ORIGIN.lon, ROW_ORIGIN.lat);
  const features: Feature[] = [];
  keys.forEach((key, i) => {
    if (key === null) return;
    features.push({
      type: 'Feature',
      properties: { [property]: key },
      geometry: { type: 'Polygon', coordinates: [rectangle(at, width * i, 0, width * (i + 1), 150)] },
    });
  });
  return { type: 'FeatureCollection' as const, features };
}

/** The test town (test/test-town.ts) on a row of lots, so every public map route has something to answer. */
export const TEST_TOWN_LOTS = ['R01-002-A', 'R01-010', 'R02-001', 'R010-005', '2-10', '10-1', 'R01-002-B'];

/** Gives the client (with the test town's roll) a parcel layer, unless it has one. */
export async function ensureParcelLayer(db: Db, clientId: number): Promise<void> {
  if (await parcelsRepository.findLayer(db, clientId)) return;
  const client = await clientsRepository.findById(db, clientId);
  const report = await importParcelLayer(db, featuresOfJson(lotRow(TEST_TOWN_LOTS), 'test'), {
    clientId,
    rollId: client?.activeRollId ?? null,
    key: 'MapLot',
    fileName: 'test-lots.geojson',
    dryRun: false,
  });
  if (report.problems.count) throw new Error(report.problems.first.join('\n'));
}

// ---- Cambridge, MA (../shared/data/realworld/cambridge-ma, see its SOURCE.md) ------------------------

export const CAMBRIDGE_DIR = path.resolve(
  import.meta.dirname,
  '../../../../shared/data/realworld/cambridge-ma',
);
export const CAMBRIDGE_LAYER = path.join(CAMBRIDGE_DIR, 'cambridge_parcels_fy2014.topojson');
const CAMBRIDGE_ROLL = path.join(CAMBRIDGE_DIR, 'cambridge_taxfy14.csv');
export const hasCambridge = fs.existsSync(CAMBRIDGE_LAYER) && fs.existsSync(CAMBRIDGE_ROLL);
export const CAMBRIDGE_MISSING = `skipped: Cambridge's data is not at ${CAMBRIDGE_DIR} (../shared is absent)`;

/**
 * Cambridge's FY2014 roll (27,528 rows) as records: the row number is the account (the file has none),
 * ML the map/lot, Location split into number, street and `#unit`. The file has no owners, so each record
 * gets one standing for its parcel (`OWNER OF <ML>`), mailed at the parcel's address.
 */
export function cambridgeRoll(): PropertyRecordInput[] {
  const rows = parse(fs.readFileSync(CAMBRIDGE_ROLL), { columns: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
  return rows.map((row, i) => {
    const location = (row.Location ?? '').trim();
    const [street = '', unit = ''] = location.split('#').map((s) => s.trim());
    const m = /^(\d[\w-]*)\s+(.*)$/.exec(street);
    return {
      Account: String(i + 1),
      MapLot: row.ML ?? '',
      StreetNumber: m ? m[1] : '',
      StreetName: m ? m[2] : street,
      Apartment: unit,
      LandValue: Number(row.TotalAppraisedLandValue) || null,
      TotalBuildingValue: Number(row.TotalAppraisedImprovements) || null,
      Owners: [
        {
          OwnerName: `OWNER OF ${row.ML}`,
          Address1: street,
          Address2: unit ? `UNIT ${unit}` : '',
          City: 'CAMBRIDGE',
          State: 'MA',
          ZipCode: '02139',
        },
      ],
    };
  });
}

/** Cambridge as a town on the portal: its roll published and its real parcel layer joined by map/lot. */
export async function publishCambridge(
  db: Db,
): Promise<{ clientId: number; roll: PropertyRecordInput[]; report: ParcelImportReport }> {
  const roll = cambridgeRoll();
  const client = await buildClient(db, { city: 'Cambridge', stateProvince: 'Massachusetts' });
  const { client: published } = await publishRoll(db, client.id, roll);
  const report = await importParcelLayer(db, await readParcelFile(CAMBRIDGE_LAYER), {
    clientId: client.id,
    rollId: published.activeRollId,
    key: 'MapLot',
    property: 'ML',
    fileName: 'cambridge_parcels_fy2014.topojson',
    dryRun: false,
  });
  return { clientId: client.id, roll, report };
}

// ---- Lebanon, NH (../shared/data/realworld/lebanon-nh, see its SOURCE.md) ------------------------

export const LEBANON_DIR = path.resolve(import.meta.dirname, '../../../../shared/data/realworld/lebanon-nh');
export const LEBANON_LAYER = path.join(LEBANON_DIR, 'LebParcels.zip');
const LEBANON_MASTER = path.join(LEBANON_DIR, 'Parcel Master Export.csv');
export const hasLebanon = fs.existsSync(LEBANON_LAYER) && fs.existsSync(LEBANON_MASTER);
export const LEBANON_MISSING = `skipped: Lebanon's data is not at ${LEBANON_DIR} (../shared is absent)`;

/**
 * Lebanon's Vision parcel master export (5,660 rows) as records: the row number is the account (the file
 * has none), map-block-lot-unit the map/lot (`4-23-906`), the one-line location split at its first space.
 * Only what a parcel layer joins and shows; the roll's own import is the imports' tests' to check.
 */
export function lebanonRoll(): PropertyRecordInput[] {
  const rows = parse(fs.readFileSync(LEBANON_MASTER), { columns: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
  return rows.map((row, i) => {
    const part = (c: string) => (row[c] ?? '').trim();
    const location = part('REM_PRCL_LOCN');
    const m = /^(\S+)\s+(.*)$/.exec(location);
    return {
      Account: String(i + 1),
      MapLot: ['REM_MBLU_MAP', 'REM_MBLU_BLOCK', 'REM_MBLU_LOT', 'REM_MBLU_UNIT']
        .map(part)
        .filter(Boolean)
        .join('-'),
      StreetNumber: m ? m[1] : '',
      StreetName: m ? m[2] : location,
      Owners: [
        {
          OwnerName: part('REM_OWN_NAME'),
          Address1: part('MAD_MAIL_ADDR1'),
          City: part('MAD_MAIL_CITY'),
          State: part('MAD_MAIL_STATE'),
          ZipCode: part('MAD_MAIL_ZIP'),
        },
      ],
    };
  });
}
