import { Geodesic } from 'geographiclib-geodesic';
import type { ParcelFeature, PropertyRecord, Sale } from '@opp/contracts';

/*
 * Comparable sales computed by another method than the server's, for the real-data tests: centroids in
 * longitude/latitude from the shapes the map serves and geodesic distances on the WGS 84 ellipsoid
 * (GeographicLib), not a projection; the class, living-area, period and arm's-length rules and the score
 * as docs/comparable-sales.md states them.
 */

const FEET = 0.3048;
const geod = Geodesic.WGS84;

/** The area-weighted centroid of a GeoJSON shape, in degrees (a parcel is small enough to be flat). */
export function centroid(f: ParcelFeature): [number, number] {
  const polygons = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
  const [ox, oy] = polygons[0]![0]![0]! as [number, number];
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (const polygon of polygons)
    polygon.forEach((ring, k) => {
      let ra = 0;
      let rx = 0;
      let ry = 0;
      for (let i = 0; i + 1 < ring.length; i++) {
        const [x0, y0] = [ring[i]![0]! - ox, ring[i]![1]! - oy];
        const [x1, y1] = [ring[i + 1]![0]! - ox, ring[i + 1]![1]! - oy];
        const cross = x0 * y1 - x1 * y0;
        ra += cross;
        rx += (x0 + x1) * cross;
        ry += (y0 + y1) * cross;
      }
      const sign = (k === 0 ? 1 : -1) * Math.sign(ra);
      a += sign * ra;
      cx += (sign * rx) / 3;
      cy += (sign * ry) / 3;
    });
  return [ox + cx / a, oy + cy / a];
}

export const feetBetween = (a: [number, number], b: [number, number]) =>
  geod.Inverse(a[1], a[0], b[1], b[0]).s12! / FEET;

/**
 * The docs' property class: three digits of the use code (padded; a state class or a Vision use-code
 * family: `1010`, `1013` are `101`), or the code itself where it does not start with digits.
 */
export function classOf(r: PropertyRecord): string | null {
  const code = r.LandCode.trim().toUpperCase();
  if (!code) return null;
  const digits = /^\d+/.exec(code)?.[0];
  return !digits ? code : digits.length >= 3 ? digits.slice(0, 3) : digits.padStart(3, '0');
}

export const livingArea = (r: PropertyRecord) => {
  const areas = r.Buildings.map((b) => b.Area).filter((a): a is number => a !== null);
  return areas.length ? areas.reduce((s, a) => s + a, 0) : null;
};

export const yearBuilt = (r: PropertyRecord) => {
  const years = [...r.Buildings, ...r.CommercialBuildings]
    .map((b) => b.YearBuilt)
    .filter((y): y is number => y !== null);
  return years.length ? Math.max(...years) : null;
};

export interface ExpectedComparable {
  /** The account and the sale (date, price, book/page): a record may have two sales on one day. */
  key: string;
  account: string;
  sale: Sale;
  feet: number;
  score: number;
  armsLength: boolean;
}

/** A town's records with their parcels' centroids, and the latest sale among them (the period's end). */
export interface OracleTown {
  records: Map<string, PropertyRecord>;
  centroids: Map<string, [number, number]>;
  latest: string;
  /** Whether the data marks a sale as not arm's length by its qualification (the town's rule). */
  unqualified?: (sale: Sale) => boolean;
}

export const saleKey = (
  account: string,
  s: { SaleDate: string | null; SalePrice: number | null; Book: string; Page: string },
) => `${account} ${s.SaleDate} ${s.SalePrice ?? 0} ${s.Book}/${s.Page}`;

/** Every sale within the criteria, arm's length or not, with its distance and score; and the counts left out. */
export function expectedComparables(
  town: OracleTown,
  subject: string,
  criteria: { distance: number; years: number; size: number | null },
) {
  const { records, centroids, latest } = town;
  const { distance, years, size } = criteria;
  const own = records.get(subject)!;
  const at = centroids.get(subject)!;
  const cls = classOf(own);
  const area = livingArea(own);
  const year = yearBuilt(own);
  const from = `${Number(latest.slice(0, 4)) - years}${latest.slice(4)}`;
  const list: ExpectedComparable[] = [];
  const not = { Qualification: 0, NominalPrice: 0 };
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
  for (const [account, c] of centroids) {
    if (account === subject) continue;
    const r = records.get(account)!;
    const feet = feetBetween(at, c);
    if (feet > distance * 5280) continue;
    if (cls !== null && classOf(r) !== cls) continue;
    const a = livingArea(r);
    if (size !== null && area && (a === null || Math.abs(a - area) > size * area + 1e-6)) continue;
    for (const s of r.Sales) {
      if (!s.SaleDate || s.SaleDate < from || s.SaleDate > latest) continue;
      const unqualified = town.unqualified?.(s) ?? false;
      const nominal = !unqualified && (s.SalePrice === null || s.SalePrice < 1000);
      if (unqualified) not.Qualification++;
      if (nominal) not.NominalPrice++;
      const y = yearBuilt(r);
      const unlike =
        0.35 * (feet / (distance * 5280)) +
        0.25 * (area && a !== null ? Math.min(1, Math.abs(a - area) / area) : 0.5) +
        0.2 * (year && y ? Math.min(1, Math.abs(y - year) / 50) : 0.5) +
        0.2 * ((day(latest) - day(s.SaleDate)) / (day(latest) - day(from)));
      list.push({
        key: saleKey(account, s),
        account,
        sale: s,
        feet,
        score: 100 * (1 - unlike),
        armsLength: !unqualified && !nominal,
      });
    }
  }
  return { list, not, from };
}
