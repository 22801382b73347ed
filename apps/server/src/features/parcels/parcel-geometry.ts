import pointInPolygon from 'point-in-polygon-hao';
import proj4 from 'proj4';
import simplify from 'simplify-js';

/*
 * The geometry of parcel layers: a file's polygons checked and repaired at import, a town's local
 * projection in feet for distances, the shortest distance between two shapes, and simplification for
 * maps. Shapes are GeoJSON MultiPolygon coordinates: polygons of rings of [x, y] positions, the first
 * ring of a polygon its outer boundary and the others its holes.
 */

export type Position = [number, number];
export type Ring = Position[];
export type Polygon = Ring[];
export type MultiPolygon = Polygon[];

export type CleanResult =
  { ok: true; coordinates: MultiPolygon; repairs: string[] } | { ok: false; problem: string };

const isPosition = (p: unknown): p is number[] =>
  Array.isArray(p) && p.length >= 2 && typeof p[0] === 'number' && typeof p[1] === 'number';

/** Twice the signed area of a ring (shoelace), in the ring's own units squared. */
function ringArea2(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    sum += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  return sum;
}

const samePosition = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

/**
 * A GeoJSON geometry as repaired MultiPolygon coordinates in longitude/latitude, or the problem that
 * makes it unusable. Repairs (each described, for the import's warnings): a ring that is not closed is
 * closed; a ring with fewer than four positions, or with no area, is dropped (a polygon whose outer
 * ring is dropped goes with its holes). Problems: not a polygon, positions that are not numbers or lie
 * outside longitude -180..180 / latitude -90..90, no polygon left.
 */
export function cleanPolygons(geometry: unknown): CleanResult {
  const g = geometry as { type?: unknown; coordinates?: unknown } | null;
  if (!g || typeof g !== 'object') return { ok: false, problem: 'has no geometry' };
  if (g.type !== 'Polygon' && g.type !== 'MultiPolygon')
    return { ok: false, problem: `is a ${String(g.type)}, not a polygon` };
  const polygons = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as unknown;
  if (!Array.isArray(polygons)) return { ok: false, problem: 'has no coordinates' };
  const repairs: string[] = [];
  const out: MultiPolygon = [];
  const many = polygons.length > 1;
  for (const [pi, polygon] of polygons.entries()) {
    if (!Array.isArray(polygon)) return { ok: false, problem: 'has malformed coordinates' };
    const kept: Polygon = [];
    for (const [ri, rawRing] of polygon.entries()) {
      const where = `${ri === 0 ? 'outer ring' : `hole ${ri}`}${many ? ` of polygon ${pi + 1}` : ''}`;
      if (!Array.isArray(rawRing)) return { ok: false, problem: 'has malformed coordinates' };
      const ring: Ring = [];
      for (const p of rawRing) {
        if (!isPosition(p) || !Number.isFinite(p[0]) || !Number.isFinite(p[1]))
          return { ok: false, problem: 'has a position that is not a pair of numbers' };
        const lon = p[0]!;
        const lat = p[1]!;
        if (lon < -180 || lon > 180 || lat < -90 || lat > 90)
          return {
            ok: false,
            problem: `has coordinates outside WGS 84 longitude/latitude (${lon}, ${lat})`,
          };
        ring.push([lon, lat]);
      }
      if (ring.length > 0 && !samePosition(ring[0]!, ring[ring.length - 1]!)) {
        ring.push([ring[0]![0], ring[0]![1]]);
        repairs.push(`${where} was not closed: closed`);
      }
      if (ring.length < 4) {
        repairs.push(`${where} has fewer than four positions: dropped`);
        if (ri === 0) break;
        continue;
      }
      if (ringArea2(ring) === 0) {
        repairs.push(`${where} has no area: dropped`);
        if (ri === 0) break;
        continue;
      }
      kept.push(ring);
    }
    // Empty when the outer ring was dropped: its holes went with it (the loop stopped there).
    if (kept.length > 0) out.push(kept);
  }
  // Rings that were all dropped (a sliver with no area) leave an empty shape, which the import leaves
  // out with a warning; a geometry without a single ring is a problem.
  if (out.length === 0 && repairs.length === 0) return { ok: false, problem: 'has no usable polygon' };
  return { ok: true, coordinates: out, repairs };
}

/** [minX, minY, maxX, maxY] of a shape. */
export function boundsOf(shape: MultiPolygon): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const polygon of shape)
    for (const [x, y] of polygon[0]!) {
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
    }
  return [minX, minY, maxX, maxY];
}

/**
 * A transverse Mercator on the GRS 80 ellipsoid centred on (lon0, lat0), in international feet, scale 1
 * on its central meridian. Within a town (tens of miles) its scale differs from 1 by less than a part in
 * a million, so distances measured on it are geodesic distances to well under a foot.
 */
export function localProjection(lon0: number, lat0: number): (p: Position) => Position {
  const converter = proj4(
    'EPSG:4326',
    `+proj=tmerc +lat_0=${lat0} +lon_0=${lon0} +k=1 +x_0=0 +y_0=0 +ellps=GRS80 +units=ft +no_defs`,
  );
  return (p) => converter.forward([p[0], p[1]]) as Position;
}

export const projectShape = (shape: MultiPolygon, project: (p: Position) => Position): MultiPolygon =>
  shape.map((polygon) => polygon.map((ring) => ring.map(project)));

/*
 * Distances between shapes on the plane. No maintained small library measures polygon to polygon (JSTS
 * does, at half a megabyte): the shortest distance between two polygons that neither touch nor overlap
 * is the shortest from a vertex of one to an edge of the other, found here edge pair by edge pair;
 * touching or crossing edges, or one shape inside the other, is distance 0.
 */

function pointSegment2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
  Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));

function segmentsCross(a: Position, b: Position, c: Position, d: Position): boolean {
  const o1 = orient(a[0], a[1], b[0], b[1], c[0], c[1]);
  const o2 = orient(a[0], a[1], b[0], b[1], d[0], d[1]);
  const o3 = orient(c[0], c[1], d[0], d[1], a[0], a[1]);
  const o4 = orient(c[0], c[1], d[0], d[1], b[0], b[1]);
  return o1 !== o2 && o3 !== o4 && o1 !== 0 && o2 !== 0 && o3 !== 0 && o4 !== 0;
}

function segmentDistance2(a: Position, b: Position, c: Position, d: Position): number {
  if (segmentsCross(a, b, c, d)) return 0;
  return Math.min(
    pointSegment2(a[0], a[1], c[0], c[1], d[0], d[1]),
    pointSegment2(b[0], b[1], c[0], c[1], d[0], d[1]),
    pointSegment2(c[0], c[1], a[0], a[1], b[0], b[1]),
    pointSegment2(d[0], d[1], a[0], a[1], b[0], b[1]),
  );
}

/** Whether a position lies inside (or on the boundary of) a shape, holes excluded. */
export function shapeContains(shape: MultiPolygon, p: Position): boolean {
  return shape.some((polygon) => pointInPolygon(p, polygon) !== false);
}

/** The distance between two boxes [minX, minY, maxX, maxY] (0 when they meet). */
export function boxDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const dx = Math.max(0, a[0]! - b[2]!, b[0]! - a[2]!);
  const dy = Math.max(0, a[1]! - b[3]!, b[1]! - a[3]!);
  return Math.sqrt(dx * dx + dy * dy);
}

/**
 * The shortest distance between two projected shapes, in their units (0: they touch or overlap), or any
 * number at least `limit` when they are at least that far apart. Edge pairs whose boxes are already
 * farther apart than the nearest pair so far (or than the limit) are not measured: an abutters list
 * measures a few hundred neighbours, and most of their edge pairs are on the far sides of both shapes.
 */
export function shapeDistance(a: MultiPolygon, b: MultiPolygon, limit = Infinity): number {
  const boxB = boundsOf(b);
  let best = limit === Infinity ? Infinity : limit * limit;
  for (const pa of a)
    for (const ra of pa)
      for (let i = 1; i < ra.length; i++) {
        const p = ra[i - 1]!;
        const q = ra[i]!;
        const ax0 = Math.min(p[0], q[0]);
        const ax1 = Math.max(p[0], q[0]);
        const ay0 = Math.min(p[1], q[1]);
        const ay1 = Math.max(p[1], q[1]);
        const gx = Math.max(0, ax0 - boxB[2], boxB[0] - ax1);
        const gy = Math.max(0, ay0 - boxB[3], boxB[1] - ay1);
        // Holes lie inside their outer ring's box, so the shape's box bounds every edge of `b`.
        if (gx * gx + gy * gy >= best) continue;
        for (const pb of b)
          for (const rb of pb)
            for (let j = 1; j < rb.length; j++) {
              const c = rb[j - 1]!;
              const d = rb[j]!;
              const hx = Math.max(0, ax0 - Math.max(c[0], d[0]), Math.min(c[0], d[0]) - ax1);
              const hy = Math.max(0, ay0 - Math.max(c[1], d[1]), Math.min(c[1], d[1]) - ay1);
              if (hx * hx + hy * hy >= best) continue;
              const d2 = segmentDistance2(p, q, c, d);
              if (d2 < best) {
                if (d2 === 0) return 0;
                best = d2;
              }
            }
      }
  if (shapeContains(b, a[0]![0]![0]!) || shapeContains(a, b[0]![0]![0]!)) return 0;
  return Math.sqrt(best);
}

/**
 * A shape simplified for drawing at `tolerance` (its units; about a screen pixel): each ring keeps its
 * ends and the vertices that move it by more than the tolerance. A ring that would fall below four
 * positions keeps its own.
 */
export function simplifyShape(shape: MultiPolygon, tolerance: number): MultiPolygon {
  return shape.map((polygon) =>
    polygon.map((ring) => {
      if (ring.length <= 4) return ring;
      const points = simplify(
        ring.map(([x, y]) => ({ x, y })),
        tolerance,
        false,
      );
      return points.length < 4 ? ring : points.map((p) => [p.x, p.y] as Position);
    }),
  );
}
