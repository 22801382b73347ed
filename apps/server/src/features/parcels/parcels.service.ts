import {
  MAX_BBOX_FEATURES,
  MailingOwner,
  stateAbbreviation,
  type Abutter,
  type AbuttersResponse,
  type Bbox,
  type ParcelCollection,
  type ParcelFeature,
  type ParcelGeometry,
  type ParcelLayerKey,
} from '@opp/contracts';
import { LRUCache } from 'lru-cache';
import type { Executor } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import { wallClock } from '../../lib/wall-clock.ts';
import { publicClientsService } from '../clients/clients.service.ts';
import {
  ownerSettingsTag,
  publicRecord,
  type OwnerSettings,
  type PublicRecordOwners,
} from '../properties/owner-privacy.ts';
import { lonLatCentroid } from './centroids.ts';
import { simplifyShape, type MultiPolygon } from './parcel-geometry.ts';
import {
  byMapLotThenAccount,
  loadParcelIndex,
  onParcelAt,
  recordAt,
  recordOfAccount,
  recordCount,
  shapeAt,
  shapesNear,
  type IndexedRecord,
  type ParcelIndex,
} from './parcel-index.ts';
import { parcelsRepository } from './parcels.repository.ts';

/*
 * The public reads of a town's parcel layer: one parcel's shape, the parcels in a map's box, and the
 * abutters of a parcel. Each joins the client's layer to its published roll through the in-memory index
 * of the pair (parcel-index.ts), built on first use and kept while memory allows. Two caches, per server:
 *
 * - which layer and published roll a client reads, for `lookupTtlMs` (TOWN_CACHE_MS): two queries a
 *   request were most of an abutters list's time on the embedded engine; a new layer or roll shows
 *   within that time, on every node;
 * - indexes by (layer id, roll id): neither ever changes, so an index is never stale; the least recently
 *   used go first past MAX_INDEX_BYTES. Bounded by memory, not by count: a small town's index is a few
 *   hundred kilobytes, and with a count of 8, requests rotated across nine towns rebuilt one every time;
 * - map-box and abutters answers by everything they are made of (layer, roll, what the town's lookup
 *   says, the box or the account and distance), up to MAX_ANSWER_BYTES: a whole town's box or a
 *   half-mile abutters list costs tens of milliseconds to build, and eight clients asking for the same
 *   ones over and over slowed every other request (second attack).
 */

const MAX_INDEX_BYTES = 400 * 1024 * 1024;
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const MAX_LOOKUPS = 1000;

const noLayer = () => notFound('This town has no parcel map');
const noParcel = () => notFound('Unable to find the parcel on the town’s map');

export interface LayerLookup {
  layerId: number;
  keyField: ParcelLayerKey;
  rollId: number;
  /** The town's owner settings, as fresh as the rest (owner-privacy.ts). */
  owners: OwnerSettings;
  /** When the town's roll was published. */
  lastUpdated: Date | null;
  /** The day the layer was published (YYYY-MM-DD, UTC) and the town, as an abutters notice names them. */
  mapDate: string;
  town: AbuttersResponse['Town'];
}

async function lookup(db: Executor, clientId: number): Promise<LayerLookup> {
  const client = await publicClientsService.requireVisible(db, clientId);
  const layer = await parcelsRepository.findLayer(db, clientId);
  const rollId = client.activeRollId;
  if (!layer || rollId === null) throw noLayer();
  const owners = { publishOwnerNames: client.publishOwnerNames, ownerNameSearch: client.ownerNameSearch };
  const mapDate = new Date(layer.importedAt).toISOString().slice(0, 10);
  const town = { City: client.city, State: stateAbbreviation(client.stateProvince) ?? client.stateProvince };
  const lastUpdated = client.lastUpdated;
  return { layerId: layer.id, keyField: layer.keyField, rollId, owners, lastUpdated, mapDate, town };
}

class ParcelIndexes {
  readonly #lookups: LRUCache<number, LayerLookup, { db: Executor }>;
  readonly #indexes = new Map<string, Promise<ParcelIndex>>();
  readonly #sizes = new Map<string, number>();

  constructor(private readonly lookupTtlMs: number) {
    this.#lookups = new LRUCache({
      max: MAX_LOOKUPS,
      ttl: Math.max(lookupTtlMs, 1),
      // One lookup per client at a time, shared by the requests that arrive meanwhile.
      fetchMethod: (clientId, _stale, { context: { db } }) => lookup(db, clientId),
      ...wallClock,
    });
  }

  /** Which layer and roll the client reads, and its owner settings; 404 when it has no layer or roll. */
  async lookup(db: Executor, clientId: number): Promise<LayerLookup> {
    if (this.lookupTtlMs === 0) return lookup(db, clientId);
    return (await this.#lookups.fetch(clientId, { context: { db } }))!;
  }

  /** The index of the client's layer joined to its published roll; 404 when it has either none. */
  async of(db: Executor, clientId: number): Promise<ParcelIndex> {
    const { layerId, keyField, rollId } = await this.lookup(db, clientId);
    const key = `${layerId}:${rollId}`;
    let promise = this.#indexes.get(key);
    if (promise) {
      // Most recently used last.
      this.#indexes.delete(key);
      this.#indexes.set(key, promise);
      return promise;
    }
    promise = loadParcelIndex(db, { id: layerId, keyField }, rollId);
    this.#remember(key, promise);
    return promise;
  }

  /** How many indexes are held (built or building). */
  get size(): number {
    return this.#indexes.size;
  }

  /** Whether the indexes held have reached the memory bound (a warm-up stops there). */
  get full(): boolean {
    return [...this.#sizes.values()].reduce((a, b) => a + b, 0) >= MAX_INDEX_BYTES;
  }

  #remember(key: string, promise: Promise<ParcelIndex>) {
    this.#indexes.set(key, promise);
    promise.then(
      (index) => {
        if (this.#indexes.get(key) !== promise) return;
        this.#sizes.set(key, index.bytes);
        let total = [...this.#sizes.values()].reduce((a, b) => a + b, 0);
        for (const old of this.#indexes.keys()) {
          if (total <= MAX_INDEX_BYTES) break;
          if (old === key) continue;
          total -= this.#sizes.get(old) ?? 0;
          this.#indexes.delete(old);
          this.#sizes.delete(old);
        }
      },
      () => {
        if (this.#indexes.get(key) === promise) this.#indexes.delete(key);
      },
    );
  }
}

const geometryOf = (shape: MultiPolygon): ParcelGeometry =>
  shape.length === 1
    ? { type: 'Polygon', coordinates: shape[0]! }
    : { type: 'MultiPolygon', coordinates: shape };

/** Shape s as a Feature named by record k (by default its first by map/lot). */
function featureOf(
  index: ParcelIndex,
  shape: MultiPolygon,
  s: number,
  k = index.recordStart[s]!,
): ParcelFeature {
  const named = recordAt(index, k);
  return {
    type: 'Feature',
    geometry: geometryOf(shape),
    properties: {
      Account: named.account,
      MapLot: named.mapLot,
      Location: named.location,
      Records: recordCount(index, s),
    },
  };
}

/** The account's record number in the index; 404 when it has no shape. */
function recordOf(index: ParcelIndex, account: string): number {
  const k = recordOfAccount(index, account);
  if (k === undefined) throw noParcel();
  return k;
}

/** How many positions a shape holds. */
function positions(coordinates: unknown): number {
  if (!Array.isArray(coordinates)) return 0;
  if (typeof coordinates[0] === 'number') return 1;
  let n = 0;
  for (const c of coordinates) n += positions(c);
  return n;
}

/** About what an answer holds in memory: its positions, and a little per feature or entry. */
function answerBytes(answer: ParcelCollection | AbuttersResponse): number {
  if ('Abutters' in answer) return 512 + answer.Abutters.reduce((n, a) => n + 256 + a.Owners.length * 256, 0);
  return answer.features.reduce((n, f) => n + 256 + 40 * positions(f.geometry.coordinates), 512);
}

/** What an answer of the client's layer depends on besides its own arguments. */
const answerKey = (town: LayerLookup) =>
  [
    town.layerId,
    town.rollId,
    ownerSettingsTag(town.owners),
    town.mapDate,
    town.town.City,
    town.town.State,
  ].join('\u0000');

export function createParcelsService(lookupTtlMs: number) {
  const indexes = new ParcelIndexes(lookupTtlMs);
  // Built once at a time per key (fetch shares a build in progress).
  const answers = new LRUCache<
    string,
    ParcelCollection | AbuttersResponse,
    () => Promise<ParcelCollection | AbuttersResponse>
  >({
    maxSize: MAX_ANSWER_BYTES,
    sizeCalculation: answerBytes,
    fetchMethod: (_key, _stale, { context: build }) => build(),
  });
  /** The answer under `key`, built by `build` when not held. */
  const answer = async <T extends ParcelCollection | AbuttersResponse>(
    key: string,
    build: () => Promise<T>,
  ): Promise<T> => (await answers.fetch(key, { context: build })) as T;
  return {
    /** How many layers' indexes the node holds. */
    heldIndexes: () => indexes.size,

    /**
     * Builds the indexes of the layers of more than `minShapes` shapes, largest first, while memory
     * allows: a county's took 15 s, which its first map or abutters request waited.
     */
    async warm(db: Executor, minShapes: number): Promise<void> {
      for (const clientId of await parcelsRepository.layersLargerThan(db, minShapes)) {
        if (indexes.full) return;
        // A town that is hidden, or has no published roll, has nothing to show yet.
        await indexes.of(db, clientId).catch((err: unknown) => {
          if (!(err instanceof AppError && err.statusCode === 404)) throw err;
        });
      }
    },

    /**
     * For a feature built on the layer (comparables): the client's layer joined to its published roll,
     * what the town's lookup says, and the account's record number; 404 as for the record's shape.
     */
    async recordOnLayer(
      db: Executor,
      clientId: number,
      account: string,
    ): Promise<{ index: ParcelIndex; town: LayerLookup; record: number }> {
      const index = await indexes.of(db, clientId);
      const town = await indexes.lookup(db, clientId);
      return { index, town, record: recordOf(index, account) };
    },

    /**
     * Where some records of the client's roll are, for the results map: [account, location, longitude,
     * latitude] (their parcel's centroid) of each that is on the layer, in the order given; 404 when
     * the town has no parcel map.
     */
    async centroidsOf(
      db: Executor,
      clientId: number,
      accounts: string[],
    ): Promise<Array<[string, string, number, number]>> {
      const index = await indexes.of(db, clientId);
      const out: Array<[string, string, number, number]> = [];
      for (const account of accounts) {
        const k = recordOfAccount(index, account);
        if (k === undefined) continue;
        const [lon, lat] = lonLatCentroid(index, index.recordShape[k]!);
        out.push([account, recordAt(index, k).location, lon, lat]);
      }
      return out;
    },

    /** The full records of some accounts of a roll, by account (decoded, as stored: owners included). */
    fullRecords: (db: Executor, rollId: number, accounts: string[]) =>
      parcelsRepository.findRecords(db, rollId, accounts),

    /** `GET /api/parcels/{clientId}/{account}`: the record's shape, as a Feature naming the record. */
    async parcel(db: Executor, clientId: number, account: string): Promise<ParcelFeature> {
      const index = await indexes.of(db, clientId);
      const k = recordOf(index, account);
      const s = index.recordShape[k]!;
      const feature = featureOf(index, shapeAt(index, s), s, k);
      // A condominium unit or mobile home shown on the parcel it sits on: "on parcel 4-23".
      const onParcel = onParcelAt(index, k);
      if (onParcel) feature.properties.OnParcel = onParcel;
      return feature;
    },

    /**
     * `GET /api/parcels/{clientId}?bbox=`: the shapes that records join and whose boxes meet the box, one
     * Feature each (named by its first record by map/lot), simplified to about a thousandth of the box.
     */
    async inBox(db: Executor, clientId: number, box: Bbox): Promise<ParcelCollection> {
      const index = await indexes.of(db, clientId);
      const town = await indexes.lookup(db, clientId);
      const { minLon, minLat, maxLon, maxLat } = box;
      return answer(`box\u0000${answerKey(town)}\u0000${[minLon, minLat, maxLon, maxLat].join()}`, async () =>
        boxAnswer(index, box),
      );
    },

    /**
     * `GET /api/abutters/{clientId}/{account}`: every other record whose shape lies within `feet` of the
     * subject's (records sharing its shape at 0), nearest first, then by map/lot, with their owners.
     */
    async abutters(db: Executor, clientId: number, account: string, feet: number): Promise<AbuttersResponse> {
      const index = await indexes.of(db, clientId);
      const town = await indexes.lookup(db, clientId);
      const own = recordOf(index, account);
      return answer(`abutters\u0000${answerKey(town)}\u0000${feet}\u0000${account}`, () =>
        abuttersAnswer(db, index, town, own, feet),
      );
    },
  };
}

/** The shapes that records join and whose boxes meet the box, simplified to a thousandth of it. */
function boxAnswer(index: ParcelIndex, box: Bbox): ParcelCollection {
  const hits = (index.lonLatTree?.search(box.minLon, box.minLat, box.maxLon, box.maxLat) ?? [])
    .filter((s) => recordCount(index, s) > 0)
    .sort((a, b) => a - b);
  const tolerance = Math.max(box.maxLon - box.minLon, box.maxLat - box.minLat) / 1000;
  return {
    type: 'FeatureCollection',
    features: hits
      .slice(0, MAX_BBOX_FEATURES)
      .map((s) => featureOf(index, simplifyShape(shapeAt(index, s), tolerance), s)),
    Truncated: hits.length > MAX_BBOX_FEATURES,
  };
}

/** Every other record within `feet` of record `own`'s shape, nearest first, with their owners. */
async function abuttersAnswer(
  db: Executor,
  index: ParcelIndex,
  lookedUp: LayerLookup,
  own: number,
  feet: number,
): Promise<AbuttersResponse> {
  const { owners: town, mapDate, town: where } = lookedUp;
  const subject = recordAt(index, own);
  const near: { record: IndexedRecord; feet: number }[] = [];
  for (const hit of shapesNear(index, index.recordShape[own]!, feet)) {
    const rounded = Math.round(hit.feet);
    const first = index.recordStart[hit.shape]!;
    for (let k = first; k < first + recordCount(index, hit.shape); k++)
      if (k !== own) near.push({ record: recordAt(index, k), feet: rounded });
  }
  near.sort((a, b) => a.feet - b.feet || byMapLotThenAccount(a.record, b.record));
  const records = await parcelsRepository.findRecords(
    db,
    index.rollId,
    near.map((n) => n.record.account),
  );
  const abutters: Abutter[] = near.map(({ record, feet: distance }) => {
    const full = records.get(record.account);
    const shown = full && publicRecord(town, full as unknown as PublicRecordOwners);
    return {
      Account: record.account,
      MapLot: record.mapLot,
      Location: record.location,
      DistanceFeet: distance,
      Owners: ownersOf(shown?.Owners),
      ...(shown?.SuppressOwner === true && { SuppressOwner: true as const }),
    };
  });
  return {
    Subject: { Account: subject.account, MapLot: subject.mapLot, Location: subject.location },
    DistanceFeet: feet,
    MapDate: mapDate,
    Town: where,
    Abutters: abutters,
  };
}

export type ParcelsService = ReturnType<typeof createParcelsService>;

const OWNER_FIELDS = Object.keys(MailingOwner.shape) as (keyof MailingOwner)[];

/** The owners of a full record, every field present. */
function ownersOf(owners: unknown): MailingOwner[] {
  if (!Array.isArray(owners)) return [];
  return owners.map((o: Record<string, unknown>) => {
    const owner = {} as Record<keyof MailingOwner, string>;
    for (const f of OWNER_FIELDS) owner[f] = typeof o[f] === 'string' ? o[f] : '';
    return owner;
  });
}
