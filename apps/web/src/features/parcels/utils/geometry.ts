import type { ParcelGeometry } from '@opp/contracts';

/** minLon, minLat, maxLon, maxLat (degrees), as the bbox query takes it. */
export type Box = [number, number, number, number];

/** The box around some shapes, or null when there are none. */
export function boxOf(geometries: readonly ParcelGeometry[]): Box | null {
  let box: Box | null = null;
  for (const g of geometries) {
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    for (const ring of polygons.flat())
      for (const [lon = 0, lat = 0] of ring) {
        if (!box) box = [lon, lat, lon, lat];
        else {
          box[0] = Math.min(box[0], lon);
          box[1] = Math.min(box[1], lat);
          box[2] = Math.max(box[2], lon);
          box[3] = Math.max(box[3], lat);
        }
      }
  }
  return box;
}

/**
 * The box grown by `feet` on every side, rounded outwards to 1e-5° (about 3 ft) so that neighbouring
 * requests share a cache key.
 */
export function padBox([minLon, minLat, maxLon, maxLat]: Box, feet: number): Box {
  const lat = (feet * 0.3048) / 111_320;
  const lon = lat / Math.max(0.1, Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180));
  const down = (v: number) => Math.floor(v * 1e5) / 1e5;
  const up = (v: number) => Math.ceil(v * 1e5) / 1e5;
  return [down(minLon - lon), down(minLat - lat), up(maxLon + lon), up(maxLat + lat)];
}

const FEET_PER_DEGREE_LAT = 111_320 / 0.3048;

/**
 * The outline of the ground within `feet` of a shape, for drawing the abutters' distance on the map: the
 * shape's convex hull grown by `feet` (straight sides moved out, arcs at the corners), on a local flat
 * projection (feet east and north of the shape). For a concave parcel it reaches a little beyond the true
 * distance; it is a picture of the rule, and the list is the answer.
 */
export function zoneAround(geometry: ParcelGeometry, feet: number): ParcelGeometry | null {
  const box = boxOf([geometry]);
  if (!box) return null;
  const lat0 = (box[1] + box[3]) / 2;
  const lon0 = (box[0] + box[2]) / 2;
  const perLon = FEET_PER_DEGREE_LAT * Math.max(0.1, Math.cos((lat0 * Math.PI) / 180));
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const points = polygons
    .flatMap((p) => p[0] ?? [])
    .map(([lon = 0, lat = 0]) => [(lon - lon0) * perLon, (lat - lat0) * FEET_PER_DEGREE_LAT] as const);
  const hull = convexHull(points);
  if (hull.length === 0) return null;
  // Corners get an arc in steps of at most 10°; a point (or a line) grows into a circle (or a stadium).
  const out: [number, number][] = [];
  const n = hull.length;
  const toLonLat = (x: number, y: number): [number, number] => [
    lon0 + x / perLon,
    lat0 + y / FEET_PER_DEGREE_LAT,
  ];
  for (let i = 0; i < n; i++) {
    const [px, py] = hull[(i + n - 1) % n]!;
    const [x, y] = hull[i]!;
    const [nx, ny] = hull[(i + 1) % n]!;
    // Outward normals of the edges before and after this corner (the hull runs anticlockwise).
    const before = n === 1 ? -Math.PI : Math.atan2(-(x - px), y - py);
    let after = n === 1 ? Math.PI : Math.atan2(-(nx - x), ny - y);
    if (n === 2 && i === 1) after = before + Math.PI;
    while (after < before) after += 2 * Math.PI;
    const steps = Math.max(1, Math.ceil((after - before) / (Math.PI / 18)));
    for (let k = 0; k <= steps; k++) {
      const a = before + ((after - before) * k) / steps;
      out.push(toLonLat(x + feet * Math.cos(a), y + feet * Math.sin(a)));
    }
  }
  out.push(out[0]!);
  return { type: 'Polygon', coordinates: [out] };
}

/** Andrew's monotone chain: the hull's corners, anticlockwise, without repeats. */
function convexHull(points: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length < 3) return sorted.map(([x, y]) => [x, y]);
  const cross = (o: readonly number[], a: readonly number[], b: readonly number[]) =>
    (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);
  const lower: (readonly [number, number])[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower.at(-2)!, lower.at(-1)!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: (readonly [number, number])[] = [];
  for (const p of sorted.reverse()) {
    while (upper.length >= 2 && cross(upper.at(-2)!, upper.at(-1)!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)].map(([x, y]) => [x, y]);
}
