import fs from 'node:fs';
import path from 'node:path';
import proj4 from 'proj4';
import * as shapefile from 'shapefile';
import { feature as topoFeature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import yauzl from 'yauzl';

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
}

/** A file that is not a parcel layer at all (the message is for the person who chose it). */
export class ParcelFileError extends Error {}

/** A zip's uncompressed content is refused past this (a Shapefile of a county is well under it). */
const MAX_UNZIPPED_BYTES = 1024 * 1024 * 1024;

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
    features = [];
    for (const object of Object.values(topology.objects)) {
      const fc = topoFeature(topology, object) as unknown as { type: string; features?: unknown[] };
      if (fc.type === 'FeatureCollection') features.push(...(fc.features ?? []));
      else features.push(fc);
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
      toWgs84 = (p) => converter.forward([p[0]!, p[1]!]);
    } catch (err) {
      throw new ParcelFileError(
        `${name}: the coordinate system in its .prj file is not understood: ${(err as Error).message}`,
      );
    }
    for (const f of features) f.geometry = reproject(f.geometry, toWgs84);
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
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return fail(err ?? new Error('no zip'));
      const files = new Map<string, Buffer>();
      let total = 0;
      zip.on('error', fail);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        total += entry.uncompressedSize;
        if (total > MAX_UNZIPPED_BYTES) return fail(new ParcelFileError(`${name} unpacks to more than 1 GB`));
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(e ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', fail);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
