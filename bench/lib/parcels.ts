import type { Db } from '../../apps/server/src/db/database.ts';
import { importParcelLayer } from '../../apps/server/src/features/parcels/parcel-import.ts';
import { loadParcelIndex, spatialBytes } from '../../apps/server/src/features/parcels/parcel-index.ts';
import { parcelsRepository } from '../../apps/server/src/features/parcels/parcels.repository.ts';
import type { ClientSpec } from './generator.ts';
import type { HttpClient } from './http.ts';
import { parcelLayout, parcelLayerFeatures } from './parcel-layer.ts';
import { Rng } from './prng.ts';
import type { ParcelFigures } from './results.ts';
import { summarize } from './stats.ts';

/*
 * The county's parcel layer (issue 40): its contiguous lots (parcel-layer.ts) imported once into a data
 * set that has none (the layer is a function of the data set's seed and size, so the data set's cache key
 * is unchanged), the in-memory spatial index of it measured, and abutters and map boxes timed through the
 * server.
 */

const ABUTTER_REQUESTS = 200;
const BOX_REQUESTS = 200;
const COMPARABLE_REQUESTS = 200;
/** About 1,600 × 1,100 ft: a few blocks, as a map shows them. */
const BOX_FEET = { width: 1600, height: 1100 };

/** Imports the layer unless the client has one; returns the seconds it took (null: it had one). */
export async function ensureCountyLayer(
  db: Db,
  clientId: number,
  rollId: number | null,
  seed: string,
  spec: ClientSpec,
): Promise<number | null> {
  if (await parcelsRepository.findLayer(db, clientId)) return null;
  const started = performance.now();
  const report = await importParcelLayer(db, [...parcelLayerFeatures(seed, spec)], {
    clientId,
    rollId,
    key: 'Account',
    fileName: 'bench-county-lots.geojson',
    dryRun: false,
  });
  if (report.problems.count) throw new Error(`the bench layer has problems: ${report.problems.first[0]}`);
  return Math.round((performance.now() - started) / 100) / 10;
}

/** The size of the layer's spatial index (shapes and trees, without the roll's records), as built. */
export async function measureLayerIndex(db: Db, clientId: number, rollId: number) {
  const layer = await parcelsRepository.findLayer(db, clientId);
  if (!layer) throw new Error('the county has no parcel layer');
  const started = performance.now();
  const index = await loadParcelIndex(db, { id: layer.id, keyField: layer.keyField }, rollId);
  return {
    shapes: index.shapeCount,
    indexMb: Math.round(spatialBytes(index) / 1024 / 1024),
    indexBuildSeconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** Abutters at 300 ft of random lots, and boxes of a few blocks at random places, one at a time. */
export async function measureParcelQueries(
  api: HttpClient,
  clientId: number,
  seed: string,
  spec: ClientSpec,
): Promise<
  Pick<
    ParcelFigures,
    'abutters' | 'bbox' | 'comparables' | 'comparablesFirstMs' | 'errors' | 'firstRequestMs'
  >
> {
  const rng = new Rng(`${seed}:parcel-queries`);
  const layout = parcelLayout(seed, spec);
  const account = () => rng.int(1, spec.parcels);
  let errors = 0;
  const timed = async (url: string) => {
    const started = performance.now();
    const res = await api.get(url);
    if (res.status !== 200) errors++;
    return performance.now() - started;
  };
  // The first request: its own figure, not a sample (it built the index when the server did not warm it).
  const firstRequestMs = Math.round(await timed(`/api/abutters/${clientId}/${account()}?distance=300`));
  const abutters: number[] = [];
  for (let i = 0; i < ABUTTER_REQUESTS; i++)
    abutters.push(await timed(`/api/abutters/${clientId}/${account()}?distance=300`));
  const [minLon, minLat, maxLon, maxLat] = layout.bounds;
  const [lon0, lat0] = layout.at(0, 0);
  const [lon1, lat1] = layout.at(BOX_FEET.width, BOX_FEET.height);
  const boxes: number[] = [];
  for (let i = 0; i < BOX_REQUESTS; i++) {
    const lon = minLon + rng.next() * Math.max(0, maxLon - minLon - (lon1 - lon0));
    const lat = minLat + rng.next() * Math.max(0, maxLat - minLat - (lat1 - lat0));
    const bbox = [lon, lat, lon + (lon1 - lon0), lat + (lat1 - lat0)].map((v) => v.toFixed(6)).join(',');
    boxes.push(await timed(`/api/parcels/${clientId}?bbox=${bbox}`));
  }
  // Comparable sales at the default criteria (half a mile, two years, ±25%); the first request reads the
  // roll's sale facts: its own figure.
  const comparablesFirstMs = Math.round(await timed(`/api/comparables/${clientId}/${account()}`));
  const comparables: number[] = [];
  for (let i = 0; i < COMPARABLE_REQUESTS; i++)
    comparables.push(await timed(`/api/comparables/${clientId}/${account()}`));
  return {
    abutters: summarize(abutters),
    bbox: summarize(boxes),
    comparables: summarize(comparables),
    comparablesFirstMs,
    errors,
    firstRequestMs,
  };
}
