import fs from 'node:fs';
import path from 'node:path';
import proj4 from 'proj4';
import * as shapefile from 'shapefile';
import { feature as topoFeature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import yauzl from 'yauzl';
import { PARCEL_LAYER_MAX_BYTES } from '@opp/contracts';

/*
 * A parcel layer file read into features, whatever its format: a GeoJSON FeatureCollection, a TopoJSON
 * topology (every object's polygons), or a zipped Shapefile (its .shp and .dbf, reprojected from the
 * coordinate system its .prj names to WGS 84 longitude/latitude). What the features hold is checked
 * afterwards (parcel-import.ts), so a problem can name the feature.
 */

export interface SourceFeature {
  /** 1-based position in the file, for messages. */
  n: number;
  properties: Record<string, unknown>;
  geometry: unknown;
  /** Why its geometry cannot be used, found while reading it (a position its .prj cannot project). */
  problem?: string;
}

/** A file that is not a parcel layer at all (the message is for the person who chose it). */
export class ParcelFileError extends Error {}

/**
 * A zip's content is refused past this many inflated bytes, the most a layer file may be uploaded as (a
 * Shapefile of a county is well under it): counted as it inflates, whatever the zip says of itself.
 */
export const MAX_UNZIPPED_BYTES = PARCEL_LAYER_MAX_BYTES;
const maxUnzippedText = `${MAX_UNZIPPED_BYTES / 1024 ** 2} MB`;

/** `name`: what messages call the file (an upload's own name rather than its temporary copy's). */
export async function readParcelFile(file: string, name = path.basename(file)): Promise<SourceFeature[]> {
  const bytes = await fs.promises.readFile(file);
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])))
    return readZippedShapefile(bytes, name);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ParcelFileError(
      `${name} is neither JSON (GeoJSON, TopoJSON) nor a zipped Shapefile: ${(err as Error).message}`,
    );
  }
  return featuresOfJson(json, name);
}

export function featuresOfJson(json: unknown, name: string): SourceFeature[] {
  const doc = json as { type?: unknown; features?: unknown; objects?: unknown } | null;
  let features: unknown[];
  if (doc?.type === 'FeatureCollection' && Array.isArray(doc.features)) features = doc.features;
  else if (doc?.type === 'Feature') features = [doc];
  else if (doc?.type === 'Topology' && doc.objects && typeof doc.objects === 'object') {
    const topology = doc as unknown as Topology;
    checkTopology(topology, name);
    features = [];
    try {
      for (const object of Object.values(topology.objects)) {
        const fc = topoFeature(topology, object) as unknown as { type: string; features?: unknown[] };
        if (fc.type === 'FeatureCollection') features.push(...(fc.features ?? []));
        else features.push(fc);
      }
    } catch (err) {
      throw new ParcelFileError(`${name}: the TopoJSON cannot be read: ${(err as Error).message}`);
    }
  } else
    throw new ParcelFileError(
      `${name} is JSON but neither a GeoJSON FeatureCollection nor a TopoJSON topology`,
    );
  return features.map((f, i) => {
    const feature = f as { properties?: unknown; geometry?: unknown } | null;
    const properties =
      feature?.properties && typeof feature.properties === 'object'
        ? (feature.properties as Record<string, unknown>)
        : {};
    return { n: i + 1, properties, geometry: feature?.geometry ?? null };
  });
}

/** Geometry collections nested deeper than this are refused (a parcel layer nests one or two). */
const MAX_TOPOLOGY_DEPTH = 16;

/**
 * A topology's structure checked before it is turned into features, so that a malformed file is a
 * message rather than a crash: every arc a list of positions, every geometry's arcs lists of arc
 * indexes that exist, collections nested at most MAX_TOPOLOGY_DEPTH deep. A topology whose geometries
 * would spell out far more positions than its arcs hold (one long arc reused by hundreds of polygons)
 * is refused too: a parcel's boundary is shared by two parcels at most.
 */
function checkTopology(topology: Topology, name: string): void {
  const fail = (why: string) => {
    throw new ParcelFileError(`${name} is not a usable TopoJSON topology: ${why}`);
  };
  const arcs = topology.arcs as unknown;
  if (!Array.isArray(arcs)) return fail('it has no list of arcs');
  let arcPositions = 0;
  for (const [i, arc] of arcs.entries()) {
    if (!Array.isArray(arc) || !arc.every((p) => Array.isArray(p) && p.length >= 2))
      return fail(`arc ${i} is not a list of positions`);
    arcPositions += arc.length;
  }
  const limit = 4 * arcPositions + 1_000_000;
  let spelled = 0;
  const arcIndex = (i: unknown) => {
    if (typeof i !== 'number' || !Number.isInteger(i))
      fail(`an arc reference (${String(i)}) is not a whole number`);
    const k = (i as number) < 0 ? ~(i as number) : (i as number);
    if (k >= arcs.length) fail(`arc ${k} is referenced, but the topology has ${arcs.length} arcs`);
    spelled += (arcs[k] as unknown[]).length;
    if (spelled > limit) fail(`its geometries reuse its arcs far more often than parcels share boundaries`);
  };
  /** Arc references nested `levels` deep (1: a list of indexes). */
  const references = (value: unknown, levels: number, type: string) => {
    if (!Array.isArray(value)) return fail(`a ${type}'s arcs are not a list`);
    for (const v of value)
      if (levels === 1) arcIndex(v);
      else references(v, levels - 1, type);
  };
  const levels: Record<string, number> = { LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };
  const stack: { g: unknown; depth: number }[] = Object.values(topology.objects).map((g) => ({
    g,
    depth: 0,
  }));
  while (stack.length > 0) {
    const { g, depth } = stack.pop()!;
    const geometry = g as { type?: unknown; arcs?: unknown; geometries?: unknown } | null;
    if (!geometry || typeof geometry !== 'object') return fail('an object is not a geometry');
    if (geometry.type === 'GeometryCollection') {
      if (depth >= MAX_TOPOLOGY_DEPTH)
        return fail(`geometry collections are nested more than ${MAX_TOPOLOGY_DEPTH} deep`);
      if (!Array.isArray(geometry.geometries)) return fail('a geometry collection has no list of geometries');
      for (const child of geometry.geometries) stack.push({ g: child, depth: depth + 1 });
    } else if (typeof geometry.type === 'string' && geometry.type in levels)
      references(geometry.arcs, levels[geometry.type]!, geometry.type);
  }
}

async function readZippedShapefile(bytes: Buffer, name: string): Promise<SourceFeature[]> {
  const entries = await unzip(bytes, name);
  const pick = (ext: string) => {
    const found = [...entries.keys()].filter(
      (e) => e.toLowerCase().endsWith(ext) && !path.basename(e).startsWith('.'),
    );
    if (found.length > 1)
      throw new ParcelFileError(`${name} holds ${found.length} ${ext} files; zip one layer at a time`);
    return found[0] === undefined ? undefined : entries.get(found[0]);
  };
  const shp = pick('.shp');
  const dbf = pick('.dbf');
  const prj = pick('.prj');
  if (!shp) throw new ParcelFileError(`${name} is a zip without a .shp file`);
  let collection: { features: { properties: unknown; geometry: unknown }[] };
  try {
    collection = (await shapefile.read(toArrayBuffer(shp), dbf ? toArrayBuffer(dbf) : undefined)) as never;
  } catch (err) {
    throw new ParcelFileError(`${name}: the Shapefile cannot be read: ${(err as Error).message}`);
  }
  const features = featuresOfJson({ type: 'FeatureCollection', features: collection.features }, name);
  if (prj) {
    let toWgs84: (p: number[]) => number[];
    try {
      const converter = proj4(prj.toString('utf8').trim(), 'EPSG:4326');
      // A position that is not a pair of finite numbers stays as it is, for the import to name its
      // feature (proj4 throws on one).
      toWgs84 = (p) =>
        Number.isFinite(p[0]) && Number.isFinite(p[1]) ? converter.forward([p[0]!, p[1]!]) : p;
    } catch (err) {
      throw new ParcelFileError(
        `${name}: the coordinate system in its .prj file is not understood: ${(err as Error).message}`,
      );
    }
    for (const f of features) {
      // A pair of numbers the projection has no longitude/latitude for (far outside its zone) comes out
      // infinite: the feature is named with the position as the file has it, as a problem of its own.
      let unprojectable: number[] | null = null;
      f.geometry = reproject(f.geometry, (p) => {
        const q = toWgs84(p);
        if (!unprojectable && Number.isFinite(p[0]) && Number.isFinite(p[1]))
          if (!Number.isFinite(q[0]) || !Number.isFinite(q[1])) unprojectable = p;
        return q;
      });
      const at = unprojectable as number[] | null;
      if (at)
        f.problem = `has a position its .prj cannot turn into longitude/latitude (${at[0]}, ${at[1]}): is the .prj the layer's own?`;
    }
  }
  return features;
}

/** A geometry with every position passed through `to` (positions that are not numbers kept as they are). */
function reproject(geometry: unknown, to: (p: number[]) => number[]): unknown {
  const g = geometry as { type?: string; coordinates?: unknown } | null;
  if (!g || !Array.isArray(g.coordinates)) return geometry;
  const walk = (c: unknown): unknown =>
    Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number'
      ? to(c as number[])
      : Array.isArray(c)
        ? c.map(walk)
        : c;
  return { ...g, coordinates: walk(g.coordinates) };
}

const toArrayBuffer = (b: Buffer): ArrayBuffer =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** Every file in a zip, by its path in the zip. */
function unzip(bytes: Buffer, name: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const fail = (err: Error) =>
      reject(
        err instanceof ParcelFileError
          ? err
          : new ParcelFileError(`${name} is not a readable zip: ${err.message}`),
      );
    // yauzl's own size check stalls on Node 20 (its stream's destroy drops the error, and the upload
    // never answered): sizes are checked here instead, as the bytes inflate.
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: false }, (err, zip) => {
      if (err || !zip) return fail(err ?? new Error('no zip'));
      const files = new Map<string, Buffer>();
      let total = 0;
      const tooLarge = () => {
        zip.close();
        fail(new ParcelFileError(`${name} unpacks to more than ${maxUnzippedText}`));
      };
      zip.on('error', fail);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        // What the zip says first (refused before inflating anything), then what it really holds.
        if (total + entry.uncompressedSize > MAX_UNZIPPED_BYTES) return tooLarge();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(e ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          let size = 0;
          let stopped = false;
          stream.on('data', (c: Buffer) => {
            if (stopped) return;
            size += c.length;
            total += c.length;
            const problem =
              total > MAX_UNZIPPED_BYTES
                ? new ParcelFileError(`${name} unpacks to more than ${maxUnzippedText}`)
                : size > entry.uncompressedSize
                  ? new Error(
                      `${entry.fileName} holds more than the ${entry.uncompressedSize} bytes it declares`,
                    )
                  : null;
            if (!problem) return void chunks.push(c);
            stopped = true;
            chunks.length = 0;
            stream.destroy();
            zip.close();
            fail(problem);
          });
          stream.on('error', fail);
          stream.on('end', () => {
            if (stopped) return;
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
