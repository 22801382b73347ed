import Flatbush from 'flatbush';
import { formatLocation, type ParcelLayerKey } from '@opp/contracts';
import { codeKey, naturalKey } from '../properties/search-text.ts';
import {
  boundsOf,
  boxDistance,
  localProjection,
  shapeDistance,
  type MultiPolygon,
  type Ring,
} from './parcel-geometry.ts';
import type { ParcelRecordRow, StoredShape } from './parcels.repository.ts';

/*
 * A town's parcel layer joined to its published roll, in memory: each shape's records, each record's
 * shape, and two spatial indexes (flatbush, packed R-trees) over the shapes' bounding boxes: one in
 * longitude/latitude for map boxes, one on the town's local projection, in feet, for abutters. Neither
 * the layer (replaced as a whole, under a new id) nor a published roll ever changes, so an index built
 * for a (layer, roll) pair is never stale.
 *
 * The shapes are held flat, in typed arrays, and made into GeoJSON coordinates only for the few a request
 * reads: a county's million lots held as arrays of [x, y] arrays took 1.4 GB, flat they take under 200 MB.
 * Positions in longitude/latitude are doubles, as stored; on the projection, single-precision feet (a
 * hundredth of a foot at 50 miles from the centre; shared corners stay identical, so touching parcels
 * stay at 0 ft).
 */

export interface IndexedRecord {
  account: string;
  mapLot: string;
  location: string;
  /** Natural sort key of the map/lot (search-text.ts), for ordering abutters. */
  mapLotSort: string;
}

export interface ParcelIndex {
  layerId: number;
  rollId: number;
  shapeCount: number;
  /** Every position in longitude/latitude, x then y. */
  lonLat: Float64Array;
  /** The same positions on the town's transverse Mercator, in feet. */
  planarXY: Float32Array;
  /** Ring r's positions are ringStart[r] to ringStart[r + 1] (exclusive); one entry more than rings. */
  ringStart: Uint32Array;
  /** 1 where a ring is a polygon's outer boundary (the rings after it, to the next such, its holes). */
  ringOuter: Uint8Array;
  /** Shape s's rings are shapeRing[s] to shapeRing[s + 1] (exclusive). */
  shapeRing: Uint32Array;
  /** The boxes of the projected shapes, [minX, minY, maxX, maxY] each. */
  planarBoxes: Float32Array;
  /** The roll's records on each shape (empty for a shape no record joins). */
  records: IndexedRecord[][];
  shapeOfAccount: Map<string, number>;
  /** Over the shapes' longitude/latitude boxes (null for a layer without shapes). */
  lonLatTree: Flatbush | null;
  /** Over `planarBoxes`. */
  planarTree: Flatbush | null;
  /** Size in bytes, for the cache's bound: the arrays and trees, and an estimate for the records. */
  bytes: number;
}

/** A record's street address as its page heads it ("37 NORTH RD, UNIT 1"). */
export const locationOf = (r: Pick<ParcelRecordRow, 'streetNumber' | 'apartment' | 'streetName'>) =>
  formatLocation({ StreetNumber: r.streetNumber, Apartment: r.apartment, StreetName: r.streetName });

function shapeFrom(index: ParcelIndex, xy: Float64Array | Float32Array, s: number): MultiPolygon {
  const shape: MultiPolygon = [];
  for (let r = index.shapeRing[s]!; r < index.shapeRing[s + 1]!; r++) {
    const ring: Ring = [];
    for (let v = index.ringStart[r]!; v < index.ringStart[r + 1]!; v++)
      ring.push([xy[2 * v]!, xy[2 * v + 1]!]);
    if (index.ringOuter[r] || shape.length === 0) shape.push([ring]);
    else shape[shape.length - 1]!.push(ring);
  }
  return shape;
}

/** Shape s in longitude/latitude, as stored. */
export const shapeAt = (index: ParcelIndex, s: number) => shapeFrom(index, index.lonLat, s);
/** Shape s on the town's projection, in feet. */
export const planarShapeAt = (index: ParcelIndex, s: number) => shapeFrom(index, index.planarXY, s);

export function buildParcelIndex(
  layer: { id: number; keyField: ParcelLayerKey },
  rollId: number,
  stored: StoredShape[],
  rows: ParcelRecordRow[],
): ParcelIndex {
  const shapeOfCode = new Map<string, number>();
  stored.forEach((s, i) => shapeOfCode.set(s.keyCode, i));

  const records: IndexedRecord[][] = stored.map(() => []);
  const shapeOfAccount = new Map<string, number>();
  for (const r of rows) {
    const value = layer.keyField === 'Account' ? r.account : r.mapLot;
    const shape = value ? shapeOfCode.get(codeKey(value)) : undefined;
    if (shape === undefined) continue;
    records[shape]!.push({
      account: r.account,
      mapLot: r.mapLot,
      location: locationOf(r),
      mapLotSort: naturalKey(r.mapLot) ?? '',
    });
    shapeOfAccount.set(r.account, shape);
  }
  for (const list of records) list.sort(byMapLotThenAccount);

  // Two passes over the stored text: counting, then filling arrays of the exact size.
  let vertexCount = 0;
  let ringCount = 0;
  const parsed = (s: StoredShape) => JSON.parse(s.coordinates) as MultiPolygon;
  for (const s of stored)
    for (const polygon of parsed(s))
      for (const ring of polygon) {
        ringCount++;
        vertexCount += ring.length;
      }
  const n = stored.length;
  const lonLat = new Float64Array(vertexCount * 2);
  const planarXY = new Float32Array(vertexCount * 2);
  const ringStart = new Uint32Array(ringCount + 1);
  const ringOuter = new Uint8Array(ringCount);
  const shapeRing = new Uint32Array(n + 1);
  const planarBoxes = new Float32Array(n * 4);
  let lonLatTree: Flatbush | null = null;
  let planarTree: Flatbush | null = null;
  let v = 0;
  let r = 0;
  if (n > 0) {
    lonLatTree = new Flatbush(n);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    stored.forEach((s, i) => {
      shapeRing[i] = r;
      const shape = parsed(s);
      for (const polygon of shape)
        polygon.forEach((ring, k) => {
          ringOuter[r] = k === 0 ? 1 : 0;
          ringStart[r++] = v;
          for (const [x, y] of ring) {
            lonLat[2 * v] = x;
            lonLat[2 * v++ + 1] = y;
          }
        });
      const [x0, y0, x1, y1] = boundsOf(shape);
      lonLatTree!.add(x0, y0, x1, y1);
      minX = Math.min(minX, x0);
      minY = Math.min(minY, y0);
      maxX = Math.max(maxX, x1);
      maxY = Math.max(maxY, y1);
    });
    shapeRing[n] = r;
    ringStart[r] = v;
    lonLatTree.finish();
    const project = localProjection((minX + maxX) / 2, (minY + maxY) / 2);
    for (let i = 0; i < vertexCount; i++) {
      const [x, y] = project([lonLat[2 * i]!, lonLat[2 * i + 1]!]);
      planarXY[2 * i] = x;
      planarXY[2 * i + 1] = y;
    }
    // Boxes of the single-precision positions themselves, so a box never leaves out a position.
    planarTree = new Flatbush(n, 16, Float32Array);
    for (let i = 0; i < n; i++) {
      let bx0 = Infinity;
      let by0 = Infinity;
      let bx1 = -Infinity;
      let by1 = -Infinity;
      for (let k = ringStart[shapeRing[i]!]!; k < ringStart[shapeRing[i + 1]!]!; k++) {
        const x = planarXY[2 * k]!;
        const y = planarXY[2 * k + 1]!;
        if (x < bx0) bx0 = x;
        if (y < by0) by0 = y;
        if (x > bx1) bx1 = x;
        if (y > by1) by1 = y;
      }
      planarBoxes.set([bx0, by0, bx1, by1], 4 * i);
      planarTree.add(bx0, by0, bx1, by1);
    }
    planarTree.finish();
  }
  const arrays = [lonLat, planarXY, ringStart, ringOuter, shapeRing, planarBoxes].reduce(
    (sum, a) => sum + a.byteLength,
    0,
  );
  const trees = (lonLatTree?.data.byteLength ?? 0) + (planarTree?.data.byteLength ?? 0);
  return {
    layerId: layer.id,
    rollId,
    shapeCount: n,
    lonLat,
    planarXY,
    ringStart,
    ringOuter,
    shapeRing,
    planarBoxes,
    records,
    shapeOfAccount,
    lonLatTree,
    planarTree,
    // The records: four short strings and an object each, and the account's map entry.
    bytes: arrays + trees + rows.length * 200,
  };
}

/** The bytes of the shapes' arrays and trees alone (the spatial index, without the roll's records). */
export const spatialBytes = (index: ParcelIndex) =>
  [index.lonLat, index.planarXY, index.ringStart, index.ringOuter, index.shapeRing, index.planarBoxes].reduce(
    (sum, a) => sum + a.byteLength,
    0,
  ) +
  (index.lonLatTree?.data.byteLength ?? 0) +
  (index.planarTree?.data.byteLength ?? 0);

export function byMapLotThenAccount(a: IndexedRecord, b: IndexedRecord): number {
  if (a.mapLotSort !== b.mapLotSort) return a.mapLotSort < b.mapLotSort ? -1 : 1;
  return a.account < b.account ? -1 : a.account > b.account ? 1 : 0;
}

export interface NearbyShape {
  shape: number;
  /** Shortest distance from the subject's shape, in feet. */
  feet: number;
}

/**
 * The shapes records join within `feet` (by their distance rounded to the foot) of shape `subject`,
 * itself included at 0.
 */
export function shapesNear(index: ParcelIndex, subject: number, feet: number): NearbyShape[] {
  const own = planarShapeAt(index, subject);
  const box = index.planarBoxes.subarray(4 * subject, 4 * subject + 4);
  const [x0, y0, x1, y1] = box as unknown as [number, number, number, number];
  // Half a foot more: a distance that rounds to `feet` is within it.
  const reach = feet + 0.5;
  const out: NearbyShape[] = [];
  for (const candidate of index.planarTree!.search(x0 - reach, y0 - reach, x1 + reach, y1 + reach)) {
    if (candidate === subject) {
      out.push({ shape: candidate, feet: 0 });
      continue;
    }
    // A shape no record joins (Cambridge's streets, all one `ROAD` shape) is nobody to notify.
    if (index.records[candidate]!.length === 0) continue;
    // The tree found boxes within `reach` along each axis; those nearer only along both are farther.
    if (boxDistance(box, index.planarBoxes.subarray(4 * candidate, 4 * candidate + 4)) >= reach) continue;
    const d = shapeDistance(own, planarShapeAt(index, candidate), reach);
    if (d < reach) out.push({ shape: candidate, feet: d });
  }
  return out;
}
