import { formatLocation, type FullProperty } from '@opp/contracts';
import type { Executor } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import { rollEtag } from '../../plugins/conditional-get.ts';
import type { ClientRow } from '../clients/clients.repository.ts';
import { cityKey, publicClientsService } from '../clients/clients.service.ts';
import { ownerSettingsTag, publicRecord } from './owner-privacy.ts';
import { propertiesRepository, type StoredRecord } from './properties.repository.ts';

/*
 * The public property page's read (`GET /api/fullproperty/{account}`), the most frequent call: it must
 * cost as little as possible. Two in-process caches, per server:
 *
 * - towns by (state, city), for `townTtlMs` (TOWN_CACHE_MS): a publish or an edit of a town shows within
 *   that time, on this node as on every other (a replaced roll stays readable for ROLL_RETIRE_SECONDS);
 * - answers by (town, roll, publish time, owner settings, account): a published roll never changes, so
 *   an entry can never be stale (a change of the town's owner settings is seen with the town, and is
 *   another key); the least recently used go first.
 */

const MAX_TOWNS = 1000;
const MAX_ANSWERS = 2000;

export interface PropertyAnswer {
  /** The record as the public may see it (the route's serializer writes its declared fields only). */
  record: FullProperty;
  etag: string;
  lastModified: Date | null;
}

class TownCache {
  constructor(private readonly ttlMs: number) {}
  readonly #towns = new Map<string, { town: ClientRow; until: number }>();
  /** One lookup per town at a time: 32 concurrent readers of an expired town share it. */
  readonly #loading = new Map<string, Promise<ClientRow>>();

  async get(db: Executor, state: string, city: string): Promise<ClientRow> {
    const key = `${state.trim().toLowerCase()}\u0000${cityKey(city)}`;
    const hit = this.#towns.get(key);
    const now = Date.now();
    if (hit && hit.until > now) {
      // Refreshed ahead of expiry in the background, so readers of a busy town never wait for it.
      if (hit.until - now < this.ttlMs / 2) this.#load(db, key, state, city).catch(() => {});
      return hit.town;
    }
    return this.#load(db, key, state, city);
  }

  #load(db: Executor, key: string, state: string, city: string): Promise<ClientRow> {
    const loading = this.#loading.get(key);
    if (loading) return loading;
    const started = Date.now();
    const promise = publicClientsService
      .findByStateCity(db, state, city)
      .then(
        (town) => {
          if (this.#towns.size >= MAX_TOWNS) this.#towns.clear();
          this.#towns.set(key, { town, until: started + this.ttlMs });
          return town;
        },
        (err: unknown) => {
          this.#towns.delete(key);
          throw err;
        },
      )
      .finally(() => {
        if (this.#loading.get(key) === promise) this.#loading.delete(key);
      });
    this.#loading.set(key, promise);
    return promise;
  }
}

class AnswerCache {
  readonly #answers = new Map<string, PropertyAnswer>();

  get(key: string): PropertyAnswer | undefined {
    const hit = this.#answers.get(key);
    if (hit) {
      // Most recently used last: eviction takes the first.
      this.#answers.delete(key);
      this.#answers.set(key, hit);
    }
    return hit;
  }

  set(key: string, answer: PropertyAnswer) {
    this.#answers.set(key, answer);
    if (this.#answers.size > MAX_ANSWERS) this.#answers.delete(this.#answers.keys().next().value!);
  }
}

/** The full record as the public may see it: owners withheld where the town or the record says so. */
function presentRecord(town: ClientRow, record: StoredRecord): FullProperty {
  const shown = publicRecord(town, record);
  return {
    ...shown,
    SuppressOwner: shown.SuppressOwner === true,
    LastUpdated: town.lastUpdated?.toISOString() ?? null,
  };
}

export function createPropertiesService(townTtlMs: number) {
  const towns = new TownCache(townTtlMs);
  const answers = new AnswerCache();
  return {
    /** The active client at a state (name or abbreviation) and city; 404 for unknown and inactive ones. */
    townOf(db: Executor, state: string, city: string): Promise<ClientRow> {
      return towns.get(db, state, city);
    },

    /**
     * `GET /api/fullproperty/{account}`: the full §3 record from the town's published roll, with the
     * date the roll was published, and its validators. Throws 404 when the town has no
     * roll or no such account.
     */
    async fullProperty(db: Executor, town: ClientRow, account: string): Promise<PropertyAnswer> {
      if (town.activeRollId === null) throw notFound('Unable to find property, invalid property.');
      const etag = rollEtag([
        'property',
        town.id,
        town.activeRollId,
        town.lastUpdated?.getTime() ?? null,
        ownerSettingsTag(town),
      ]);
      const key = `${etag}\u0000${account}`;
      const cached = answers.get(key);
      if (cached) return cached;
      const record = await propertiesRepository.findRecord(
        db,
        { clientId: town.id, rollId: town.activeRollId },
        account,
      );
      if (record === null) throw notFound('Unable to find property, invalid property.');
      const answer = {
        record: presentRecord(town, record),
        etag,
        lastModified: town.lastUpdated,
      };
      answers.set(key, answer);
      return answer;
    },
  };
}

export type PropertiesService = ReturnType<typeof createPropertiesService>;

/**
 * The heading of a record's page (its address, else its account), as the page's PropertyHeader writes
 * it (apps/web/src/features/properties/components/property-header.tsx), for the server to paint before
 * the app runs; null when the town has no such record. One primary-key read.
 */
export async function recordHeading(db: Executor, town: ClientRow, account: string): Promise<string | null> {
  if (town.activeRollId === null) return null;
  const record = await propertiesRepository.findRecord(
    db,
    { clientId: town.id, rollId: town.activeRollId },
    account,
  );
  if (record === null) return null;
  return formatLocation(record) || `Account ${record.Account}`;
}
