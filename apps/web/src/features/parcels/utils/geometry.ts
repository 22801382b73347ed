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
