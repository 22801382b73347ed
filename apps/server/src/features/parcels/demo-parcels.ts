import type { Db } from '../../db/database.ts';
import { clientsService } from '../clients/clients.service.ts';
import { Prng } from '../demo/prng.ts';
import { naturalKey } from '../properties/search-text.ts';
import type { SourceFeature } from './parcel-files.ts';
import { importParcelLayer, type ParcelImportReport } from './parcel-import.ts';
import { parcelsRepository } from './parcels.repository.ts';

/*
 * Synthetic but plausible lots for the demo towns, so a map shows on the first start: a grid of streets
 * around the town centre, each block two rows of lots back to back, fronting the streets on either side.
 * Lot widths vary, side lines slant, and the rear line between the rows wanders, so parcels look drawn,
 * not stamped; neighbours share their boundaries exactly, as in a real layer. Each distinct map/lot of
 * the town's published roll gets a lot, in map/lot order (condominium units share their building's).
 */

const BLOCK_FEET = 900;
const ROW_DEPTH_FEET = 160;
const STREET_FEET = 50;
/** Feet per degree of latitude; a degree of longitude is this times the cosine of the latitude. */
const FEET_PER_DEGREE = 364_000;

type Point = [number, number];

/** Lots (as rings in feet, centred on 0,0) for `count` parcels. */
export function demoLots(count: number, seed: string): Point[][] {
  const r = new Prng(`open-property-portal demo lots ${seed} v1`);
  const lots: Point[][] = [];
  // Blocks in a square grid, filled row by row from the north-west.
  const perBlockGuess = 2 * Math.floor(BLOCK_FEET / 100);
  const blocksAcross = Math.max(1, Math.ceil(Math.sqrt(count / perBlockGuess)));
  const pitchX = BLOCK_FEET + STREET_FEET;
  const pitchY = 2 * ROW_DEPTH_FEET + STREET_FEET;
  const width = blocksAcross * pitchX;
  const height = Math.ceil(count / perBlockGuess / blocksAcross + 1) * pitchY;
  for (let block = 0; lots.length < count; block++) {
    const x0 = (block % blocksAcross) * pitchX - width / 2;
    const top = height / 2 - Math.floor(block / blocksAcross) * pitchY;
    // The side lines: x where each crosses the north street, the rear line and the south street.
    const sides: { north: number; mid: number; south: number; midY: number }[] = [];
    let x = 0;
    while (x < BLOCK_FEET) {
      const mid = Math.min(BLOCK_FEET, x + r.int(-12, 12));
      sides.push({
        north: x,
        mid: x === 0 ? 0 : Math.max(sides.at(-1)!.mid + 20, mid),
        south: x === 0 ? 0 : x + r.int(-15, 15),
        midY: top - ROW_DEPTH_FEET + (x === 0 ? 0 : r.int(-20, 20)),
      });
      x += r.int(70, 190);
      if (BLOCK_FEET - x < 60) break;
    }
    sides.push({ north: BLOCK_FEET, mid: BLOCK_FEET, south: BLOCK_FEET, midY: top - ROW_DEPTH_FEET });
    const bottom = top - 2 * ROW_DEPTH_FEET;
    const at = (dx: number, y: number): Point => [x0 + dx, y];
    // North row, then south row.
    for (let i = 1; i < sides.length && lots.length < count; i++) {
      const a = sides[i - 1]!;
      const b = sides[i]!;
      lots.push([at(a.north, top), at(b.north, top), at(b.mid, b.midY), at(a.mid, a.midY), at(a.north, top)]);
    }
    for (let i = 1; i < sides.length && lots.length < count; i++) {
      const a = sides[i - 1]!;
      const b = sides[i]!;
      lots.push([
        at(a.mid, a.midY),
        at(b.mid, b.midY),
        at(b.south, bottom),
        at(a.south, bottom),
        at(a.mid, a.midY),
      ]);
    }
  }
  return lots;
}

/** The base map/lot of a condominium unit (`U03-005-002` → `U03-005`): units share their building's lot. */
const buildingOf = (mapLot: string) => mapLot.replace(/^([A-Z]\d+-\d+)-\d{3}$/, '$1');

/**
 * Gives a demo town a parcel layer drawn for its published roll around (lon, lat). Returns the import's
 * report (null when the town has no roll yet).
 */
export async function createDemoParcelLayer(
  db: Db,
  clientId: number,
  centre: { lat: number; lon: number },
  seed: string,
): Promise<ParcelImportReport | null> {
  const client = await clientsService.findById(db, clientId);
  if (!client?.activeRollId) return null;
  const seen = new Set<string>();
  for await (const batch of parcelsRepository.recordBatches(db, client.activeRollId))
    for (const row of batch) if (row.mapLot) seen.add(row.mapLot);
  const mapLots = [...seen].sort((a, b) => ((naturalKey(a) ?? '') < (naturalKey(b) ?? '') ? -1 : 1));
  const buildings = [...new Set(mapLots.map(buildingOf))];
  const lots = demoLots(buildings.length, seed);
  const lotOf = new Map(buildings.map((b, i) => [b, lots[i]!]));
  const feetToLon = FEET_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180);
  const toLonLat = ([x, y]: Point) => [
    Math.round((centre.lon + x / feetToLon) * 1e7) / 1e7,
    Math.round((centre.lat + y / FEET_PER_DEGREE) * 1e7) / 1e7,
  ];
  const features: SourceFeature[] = mapLots.map((mapLot, i) => ({
    n: i + 1,
    properties: { MapLot: mapLot },
    geometry: { type: 'Polygon', coordinates: [lotOf.get(buildingOf(mapLot))!.map(toLonLat)] },
  }));
  return importParcelLayer(db, features, {
    clientId,
    rollId: client.activeRollId,
    key: 'MapLot',
    fileName: 'demo-lots.geojson',
    dryRun: false,
  });
}
