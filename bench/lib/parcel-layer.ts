import { Rng } from './prng.ts';
import type { ClientSpec } from './generator.ts';

/*
 * A client's synthetic parcel layer (issue 40): contiguous lots along a street grid, one lot per record,
 * keyed by Account (record i is account i + 1). Blocks of 2 × 10 lots, back to back, 100 ft wide and
 * 150 ft deep, between 60 ft streets; the blocks tile a square. The corners between lots move by up to
 * 20 ft (from a hash of the corner, so the two lots that share a corner share it exactly): lots are
 * irregular but touch their neighbours, as a real layer's do. Lot i depends only on (seed, client, i).
 */

const LOT_WIDTH = 100;
const LOT_DEPTH = 150;
const LOTS_ACROSS = 10;
const STREET = 60;
const JITTER = 20;
const BLOCK_LOTS = LOTS_ACROSS * 2;
const BLOCK_WIDTH = LOTS_ACROSS * LOT_WIDTH + STREET;
const BLOCK_HEIGHT = 2 * LOT_DEPTH + STREET;
/** The layer's south-west corner (inland Maine). */
const ORIGIN = { lon: -69.9, lat: 44.2 };
const FEET_PER_DEGREE_LAT = 364_000;

export interface LayerFeature {
  n: number;
  properties: { Account: string };
  geometry: { type: 'Polygon'; coordinates: [number, number][][] };
}

/** A 32-bit hash of integers (murmur3's finalizer over a running mix). */
function hash(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) {
    h = Math.imul(h ^ (x | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

export function parcelLayout(seed: string, spec: ClientSpec) {
  const blocks = Math.ceil(spec.parcels / BLOCK_LOTS);
  const blocksPerRow = Math.ceil(Math.sqrt((blocks * BLOCK_HEIGHT) / BLOCK_WIDTH));
  const salt = Math.floor(new Rng(`${seed}:${spec.index}:parcels`).next() * 2 ** 31);
  const feetPerDegreeLon = FEET_PER_DEGREE_LAT * Math.cos((ORIGIN.lat * Math.PI) / 180);
  const rounded = (n: number) => Math.round(n * 1e7) / 1e7;
  const at = (x: number, y: number): [number, number] => [
    rounded(ORIGIN.lon + x / feetPerDegreeLon),
    rounded(ORIGIN.lat + y / FEET_PER_DEGREE_LAT),
  ];
  /** Corner (c, r) of block b in feet: c 0..10 along the street, r 0..2 from the front; inner ones moved. */
  const corner = (b: number, c: number, r: number): [number, number] => {
    const x0 = (b % blocksPerRow) * BLOCK_WIDTH + c * LOT_WIDTH;
    const y0 = Math.floor(b / blocksPerRow) * BLOCK_HEIGHT + r * LOT_DEPTH;
    const h = hash(salt, b, c, r);
    const dx = c > 0 && c < LOTS_ACROSS ? ((h & 0xffff) / 0xffff - 0.5) * 2 * JITTER : 0;
    const dy = r === 1 ? ((h >>> 16) / 0xffff - 0.5) * 2 * JITTER : 0;
    return at(x0 + dx, y0 + dy);
  };
  return {
    /** [minLon, minLat, maxLon, maxLat] of the whole layer. */
    bounds: [
      ...at(0, 0),
      ...at(blocksPerRow * BLOCK_WIDTH, Math.ceil(blocks / blocksPerRow) * BLOCK_HEIGHT),
    ] as [number, number, number, number],
    /** A point at (x, y) feet from the layer's south-west corner. */
    at,
    /** Lot i (0-based): record i's parcel. */
    lot(i: number): LayerFeature {
      const b = Math.floor(i / BLOCK_LOTS);
      const j = i % BLOCK_LOTS;
      const r = Math.floor(j / LOTS_ACROSS);
      const c = j % LOTS_ACROSS;
      const ring = [
        corner(b, c, r),
        corner(b, c + 1, r),
        corner(b, c + 1, r + 1),
        corner(b, c, r + 1),
        corner(b, c, r),
      ];
      return {
        n: i + 1,
        properties: { Account: String(i + 1) },
        geometry: { type: 'Polygon', coordinates: [ring] },
      };
    },
  };
}

/** Every lot of the client, in record order. */
export function* parcelLayerFeatures(seed: string, spec: ClientSpec): Generator<LayerFeature> {
  const layout = parcelLayout(seed, spec);
  for (let i = 0; i < spec.parcels; i++) yield layout.lot(i);
}
