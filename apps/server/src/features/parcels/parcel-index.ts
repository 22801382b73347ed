import { setImmediate as nextTurn } from 'node:timers/promises';
import Flatbush from 'flatbush';
import { formatLocation, type ParcelLayerKey } from '@opp/contracts';
import { naturalKey } from '../properties/search-text.ts';
import {
  boundsOf,
  boxDistance,
  localProjection,
  shapeDistance,
  type MultiPolygon,
  type Ring,
} from './parcel-geometry.ts';
import type { Executor } from '../../db/database.ts';
import { joinedCode, recordCode } from './parcel-join.ts';
import { parcelsRepository, type ParcelRecordRow, type StoredShape } from './parcels.repository.ts';
import { collectGarbage } from '../../lib/collect-garbage.ts';
import { Grow, packTexts, packedBytes, textAt, type PackedTexts } from '../../lib/typed-columns.ts';

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
 * stay at 0 ft). The records likewise: three packed strings and their offsets, not an object each (a
 * county's records as objects took 350 MB).
 */

/*
 * A build gives the event loop a turn between its steps and every so many shapes, positions or records:
 * a county's, built when its first map request came (a node that did not warm it, or a new roll), held
 * every other request for up to 3.2 s at a time; now the longest wait is one tree's sort (flatbush's
 * finish, about a second on a 2-core machine).
 */
const TURN_SHAPES = 4096;
const TURN_VERTICES = 65_536;
const TURN_RECORDS = 8192;

/** Shapes and records past which a build collects its garbage (collect-garbage.ts) when done. */
const LARGE_BUILD = 200_000;

/** What a map or an abutters list names a record by. */
export interface IndexedRecord {
  account: string;
  mapLot: string;
  location: string;
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
  /**
   * The roll's records that join a shape, numbered by shape, then map/lot, then account: shape s's are
   * recordStart[s] to recordStart[s + 1] (exclusive; none for a shape no record joins).
   */
  recordStart: Uint32Array;
  /** Each record's shape. */
  recordShape: Uint32Array;
  accounts: PackedTexts;
  mapLots: PackedTexts;
  locations: PackedTexts;
  /**
   * The key of the parcel a record sits on when its own map/lot has no shape (parcel-join.ts), '' for
   * the records on their own.
   */
  onParcels: PackedTexts;
  /** The record numbers in account order, for finding an account's record by halving. */
  byAccount: Uint32Array;
  /** Over the shapes' longitude/latitude boxes (null for a layer without shapes). */
  lonLatTree: Flatbush | null;
  /** Over `planarBoxes`. */
  planarTree: Flatbush | null;
  /** Size in bytes, for the cache's bound. */
  bytes: number;
}

/** A record's street address as its page heads it ("37 NORTH RD, UNIT 1"). */
const formatRecordLocation = (r: Pick<ParcelRecordRow, 'streetNumber' | 'apartment' | 'streetName'>) =>
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

/**
 * The index of a layer joined to a roll, read a batch at a time: a county's million lots read as one
 * result held their text, and arrays parsed from it, several times over at once.
 */
async function buildParcelIndex(
  layer: { id: number; keyField: ParcelLayerKey },
  rollId: number,
  shapeBatches: AsyncIterable<StoredShape[]>,
  recordBatches: AsyncIterable<ParcelRecordRow[]>,
): Promise<ParcelIndex> {
  const shapeOfCode = new Map<string, number>();
  const shapeKeys: string[] = [];
  const lonLatGrow = new Grow((n) => new Float64Array(n));
  const ringStartGrow = new Grow((n) => new Uint32Array(n));
  const ringOuterGrow = new Grow((n) => new Uint8Array(n));
  const shapeRingGrow = new Grow((n) => new Uint32Array(n));
  const boxes = new Grow((n) => new Float64Array(n));
  for await (const batch of shapeBatches)
    for (const [k, s] of batch.entries()) {
      if (k % TURN_SHAPES === TURN_SHAPES - 1) await nextTurn();
      shapeOfCode.set(s.keyCode, shapeRingGrow.length);
      shapeKeys.push(s.key);
      shapeRingGrow.push(ringStartGrow.length);
      const shape = JSON.parse(s.coordinates) as MultiPolygon;
      for (const polygon of shape)
        polygon.forEach((ring, k) => {
          ringOuterGrow.push(k === 0 ? 1 : 0);
          ringStartGrow.push(lonLatGrow.length / 2);
          for (const [x, y] of ring) {
            lonLatGrow.push(x);
            lonLatGrow.push(y);
          }
        });
      for (const b of boundsOf(shape)) boxes.push(b);
    }
  // The join: each record finds the shape of its key. Rows come in account order.
  const accountOf: string[] = [];
  const mapLotOf: string[] = [];
  const locationOf: string[] = [];
  const onParcelOf: string[] = [];
  const hasShape = (code: string) => shapeOfCode.has(code);
  const joinedShapes = new Uint8Array(shapeRingGrow.length);
  const joinedShape = new Grow((m) => new Uint32Array(m));
  for await (const batch of recordBatches)
    for (const [k, r] of batch.entries()) {
      if (k % TURN_RECORDS === TURN_RECORDS - 1) await nextTurn();
      const own = recordCode(layer.keyField, r);
      const code = joinedCode(hasShape, own, layer.keyField);
      if (code === undefined) continue;
      const shape = shapeOfCode.get(code)!;
      accountOf.push(r.account);
      mapLotOf.push(r.mapLot);
      locationOf.push(formatRecordLocation(r));
      onParcelOf.push(code === own ? '' : shapeKeys[shape]!);
      joinedShape.push(shape);
      joinedShapes[shape] = 1;
    }
  shapeOfCode.clear();
  shapeKeys.length = 0;

  const n = shapeRingGrow.length;
  shapeRingGrow.push(ringStartGrow.length);
  ringStartGrow.push(lonLatGrow.length / 2);
  const lonLat = lonLatGrow.trimmed();
  const ringStart = ringStartGrow.trimmed();
  const ringOuter = ringOuterGrow.trimmed();
  const shapeRing = shapeRingGrow.trimmed();
  const vertexCount = lonLat.length / 2;
  const planarXY = new Float32Array(vertexCount * 2);
  const planarBoxes = new Float32Array(n * 4);
  let lonLatTree: Flatbush | null = null;
  let planarTree: Flatbush | null = null;
  if (n > 0) {
    lonLatTree = new Flatbush(n);
    for (let i = 0; i < n; i++) {
      const [x0, y0, x1, y1] = boxes.data.subarray(4 * i, 4 * i + 4);
      lonLatTree.add(x0!, y0!, x1!, y1!);
    }
    lonLatTree.finish();
    await nextTurn();
    const project = localProjection(...projectionCentre(boxes.data, joinedShapes));
    for (let i = 0; i < vertexCount; i++) {
      if (i % TURN_VERTICES === TURN_VERTICES - 1) await nextTurn();
      const [x, y] = project([lonLat[2 * i]!, lonLat[2 * i + 1]!]);
      planarXY[2 * i] = x;
      planarXY[2 * i + 1] = y;
    }
    // Boxes of the single-precision positions themselves, so a box never leaves out a position.
    planarTree = new Flatbush(n, 16, Float32Array);
    for (let i = 0; i < n; i++) {
      if (i % TURN_SHAPES === TURN_SHAPES - 1) await nextTurn();
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
    await nextTurn();
    planarTree.finish();
  }
  boxes.clear();

  const m = accountOf.length;
  // Numbered by shape (a counting sort), then, where records share a shape, by map/lot and account.
  const recordStart = new Uint32Array(n + 1);
  for (let i = 0; i < m; i++) recordStart[joinedShape.data[i]! + 1]!++;
  for (let s = 0; s < n; s++) recordStart[s + 1]! += recordStart[s]!;
  const numbered = new Uint32Array(m);
  const next = recordStart.slice(0, n);
  for (let i = 0; i < m; i++) numbered[next[joinedShape.data[i]!]!++] = i;
  joinedShape.clear();
  const recordShape = new Uint32Array(m);
  const joined = (i: number) => ({ account: accountOf[i]!, mapLot: mapLotOf[i]! });
  for (let s = 0; s < n; s++) {
    const from = recordStart[s]!;
    const to = recordStart[s + 1]!;
    recordShape.fill(s, from, to);
    if (to - from > 1) numbered.subarray(from, to).sort((a, b) => byMapLotThenAccount(joined(a), joined(b)));
  }
  await nextTurn();
  const numberOf = new Uint32Array(m);
  numbered.forEach((i, k) => (numberOf[i] = k));
  // Already in account order as the database sorts; sorting again (nearly linear on sorted input) puts
  // them in the order the lookup compares in.
  const inAccountOrder = Array.from({ length: m }, (_, i) => i).sort((a, b) =>
    compareText(accountOf[a]!, accountOf[b]!),
  );
  const byAccount = Uint32Array.from(inAccountOrder, (i) => numberOf[i]!);
  const pack = (values: string[]) => packTexts(Array.from(numbered, (i) => values[i]!));
  await nextTurn();
  const accounts = pack(accountOf);
  await nextTurn();
  const mapLots = pack(mapLotOf);
  await nextTurn();
  const locations = pack(locationOf);
  const onParcels = pack(onParcelOf);

  const index = {
    layerId: layer.id,
    rollId,
    shapeCount: n,
    lonLat,
    planarXY,
    ringStart,
    ringOuter,
    shapeRing,
    planarBoxes,
    recordStart,
    recordShape,
    accounts,
    mapLots,
    locations,
    onParcels,
    byAccount,
    lonLatTree,
    planarTree,
    bytes: 0,
  };
  index.bytes =
    spatialBytes(index) +
    [recordStart, recordShape, byAccount].reduce((sum, a) => sum + a.byteLength, 0) +
    packedBytes(accounts) +
    packedBytes(mapLots) +
    packedBytes(locations) +
    packedBytes(onParcels);
  return index;
}

/**
 * Where the town's projection is centred: the middle (median) of the shapes records join, or of every
 * shape when none does. A stray shape (one at 110° E, 0° in a New England layer) moved the middle of the
 * layer's extent so far that a neighbour 263 ft away measured 378 ft; a median does not move for it.
 */
function projectionCentre(boxes: Float64Array, joined: Uint8Array): [number, number] {
  const anyJoined = joined.includes(1);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    if (anyJoined && !joined[i]) continue;
    xs.push((boxes[4 * i]! + boxes[4 * i + 2]!) / 2);
    ys.push((boxes[4 * i + 1]! + boxes[4 * i + 3]!) / 2);
  }
  const median = (v: number[]) => v.sort((a, b) => a - b)[v.length >> 1]!;
  return [median(xs), median(ys)];
}

/** The index of a client's layer joined to a published roll, read from the database. */
export async function loadParcelIndex(
  db: Executor,
  layer: { id: number; keyField: ParcelLayerKey },
  rollId: number,
): Promise<ParcelIndex> {
  const index = await buildParcelIndex(
    layer,
    rollId,
    parcelsRepository.shapeBatches(db, layer.id),
    parcelsRepository.recordBatches(db, rollId, { locIds: layer.keyField === 'LocId' }),
  );
  // The build's working memory (a county's: its rows, a string per record and field, the key map, the
  // arrays that grew) is garbage once it has returned; without a full collection V8 kept the pages, and
  // the server stayed 500 MB larger than it needs.
  if (index.shapeCount + index.byAccount.length > LARGE_BUILD) collectGarbage();
  return index;
}

/** The bytes of the shapes' arrays and trees alone (the spatial index, without the roll's records). */
export const spatialBytes = (index: ParcelIndex) =>
  [index.lonLat, index.planarXY, index.ringStart, index.ringOuter, index.shapeRing, index.planarBoxes].reduce(
    (sum, a) => sum + a.byteLength,
    0,
  ) +
  (index.lonLatTree?.data.byteLength ?? 0) +
  (index.planarTree?.data.byteLength ?? 0);

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Record k of the index. */
export const recordAt = (index: ParcelIndex, k: number): IndexedRecord => ({
  account: textAt(index.accounts, k),
  mapLot: textAt(index.mapLots, k),
  location: textAt(index.locations, k),
});

/** The key of the parcel record k sits on when its own map/lot has no shape ('' when it has). */
export const onParcelAt = (index: ParcelIndex, k: number) => textAt(index.onParcels, k);

/** How many records join shape s (records recordStart[s] onwards; none for a shape no record joins). */
export const recordCount = (index: ParcelIndex, s: number) =>
  index.recordStart[s + 1]! - index.recordStart[s]!;

/** The record number of an account, or undefined when the roll has no such record on the layer. */
export function recordOfAccount(index: ParcelIndex, account: string): number | undefined {
  let lo = 0;
  let hi = index.byAccount.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareText(textAt(index.accounts, index.byAccount[mid]!), account);
    if (c === 0) return index.byAccount[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return undefined;
}

type SortedBy = Pick<IndexedRecord, 'account' | 'mapLot'>;

/** By map/lot as people read it (search-text.ts naturalKey), then by account. */
export function byMapLotThenAccount(a: SortedBy, b: SortedBy): number {
  return (
    compareText(naturalKey(a.mapLot) ?? '', naturalKey(b.mapLot) ?? '') || compareText(a.account, b.account)
  );
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
    if (recordCount(index, candidate) === 0) continue;
    // The tree found boxes within `reach` along each axis; those nearer only along both are farther.
    if (boxDistance(box, index.planarBoxes.subarray(4 * candidate, 4 * candidate + 4)) >= reach) continue;
    const d = shapeDistance(own, planarShapeAt(index, candidate), reach);
    if (d < reach) out.push({ shape: candidate, feet: d });
  }
  return out;
}
