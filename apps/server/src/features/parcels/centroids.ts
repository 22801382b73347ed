import type { ParcelIndex } from './parcel-index.ts';

/*
 * Parcel centroids, from the shapes the parcel index holds flat: the area-weighted centre of a shape's
 * polygons, holes taken away (a shape of no area: the mean of its positions). Comparables measure
 * distance between centroids, in feet on the index's projection; the comparables and results maps show
 * them in longitude/latitude.
 */

function centroidOf(index: ParcelIndex, xy: Float64Array | Float32Array, s: number): [number, number] {
  const firstRing = index.shapeRing[s]!;
  // Relative to the shape's first position: sums of products of large coordinates lose their digits.
  const v0 = index.ringStart[firstRing]!;
  const ox = xy[2 * v0]!;
  const oy = xy[2 * v0 + 1]!;
  let area = 0;
  let cx = 0;
  let cy = 0;
  let mx = 0;
  let my = 0;
  let count = 0;
  for (let r = firstRing; r < index.shapeRing[s + 1]!; r++) {
    const from = index.ringStart[r]!;
    const to = index.ringStart[r + 1]!;
    let a = 0;
    let sx = 0;
    let sy = 0;
    for (let v = from; v < to; v++) {
      const w = v + 1 < to ? v + 1 : from;
      const x0 = xy[2 * v]! - ox;
      const y0 = xy[2 * v + 1]! - oy;
      const x1 = xy[2 * w]! - ox;
      const y1 = xy[2 * w + 1]! - oy;
      const cross = x0 * y1 - x1 * y0;
      a += cross;
      sx += (x0 + x1) * cross;
      sy += (y0 + y1) * cross;
      mx += x0;
      my += y0;
      count++;
    }
    if (a === 0) continue;
    // An outer ring adds its area whichever way it winds; a hole takes its own away.
    const sign = (index.ringOuter[r] ? 1 : -1) * Math.sign(a);
    area += sign * a;
    cx += (sign * sx) / 3;
    cy += (sign * sy) / 3;
  }
  if (area === 0 || count === 0) return count === 0 ? [ox, oy] : [ox + mx / count, oy + my / count];
  return [ox + cx / area, oy + cy / area];
}

const planar = new WeakMap<ParcelIndex, Float64Array>();

/** Shape s's centroid on the index's projection, in feet (computed once per shape and index). */
export function planarCentroid(index: ParcelIndex, s: number): [number, number] {
  let held = planar.get(index);
  if (!held) {
    held = new Float64Array(2 * index.shapeCount).fill(NaN);
    planar.set(index, held);
  }
  if (Number.isNaN(held[2 * s])) {
    const [x, y] = centroidOf(index, index.planarXY, s);
    held[2 * s] = x;
    held[2 * s + 1] = y;
  }
  return [held[2 * s]!, held[2 * s + 1]!];
}

/** Shape s's centroid in longitude/latitude (WGS 84), to six decimals (about 4 inches). */
export function lonLatCentroid(index: ParcelIndex, s: number): [number, number] {
  const [lon, lat] = centroidOf(index, index.lonLat, s);
  return [Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6];
}
