import { LRUCache } from 'lru-cache';
import { FullProperty, formatLocation } from '@opp/contracts';
import type { Executor } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import { compileResponseSerializer } from '../../lib/response-serializer.ts';
import { wallClock } from '../../lib/wall-clock.ts';
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
  /**
   * The record as the public may see it, serialized once by the code compiled from its response schema
   * (lib/response-serializer.ts): a cached answer is sent as it is, where serializing the object again
   * for every read cost a record read two thirds of its throughput at concurrency 32.
   */
  json: string;
  etag: string;
  lastModified: Date | null;
}

/** The full record's serializer, compiled once from the route's response schema. */
const serializeRecord = compileResponseSerializer(FullProperty);

/** Towns by (state, city) for `ttlMs`; 0: looked up on every request. */
class TownCache {
  readonly #towns: LRUCache<string, ClientRow, { db: Executor; state: string; city: string }>;

  constructor(private readonly ttlMs: number) {
    this.#towns = new LRUCache({
      max: MAX_TOWNS,
      ttl: Math.max(ttlMs, 1),
      // One lookup per town at a time: 32 concurrent readers of an expired town share it.
      fetchMethod: (_key, _stale, { context: { db, state, city } }) =>
        publicClientsService.findByStateCity(db, state, city),
      // The wall clock, which the tests move on rather than wait for.
      ...wallClock,
    });
  }

  async get(db: Executor, state: string, city: string): Promise<ClientRow> {
    if (this.ttlMs === 0) return publicClientsService.findByStateCity(db, state, city);
    const key = `${state.trim().toLowerCase()}\u0000${cityKey(city)}`;
    const context = { db, state, city };
    const left = this.#towns.getRemainingTTL(key);
    // Refreshed ahead of expiry in the background, so readers of a busy town never wait for it; an
    // expired town is never served.
    if (left > 0 && left < this.ttlMs / 2)
      this.#towns.fetch(key, { context, forceRefresh: true, allowStale: true }).catch(() => {});
    return (await this.#towns.fetch(key, { context, allowStale: left > 0 }))!;
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
  // Keyed by everything an answer depends on, so an entry is never stale: the least recently used go.
  const answers = new LRUCache<string, PropertyAnswer>({ max: MAX_ANSWERS });
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
        json: serializeRecord(presentRecord(town, record)),
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
