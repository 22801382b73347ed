import {
  canAdministerClient,
  isProviderAdmin,
  resolveStateName,
  stateAbbreviation,
  type Actor,
  type ClientLookup,
  type PublicClient,
  type RollDates,
  type RollDating,
} from '@opp/contracts';
import { LRUCache } from 'lru-cache';
import type { Executor } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import { rollsService } from '../rolls/rolls.service.ts';
import { parcelLayersService } from '../parcels/parcel-layers.service.ts';
import { clientsRepository, toPublicClient, type ClientRow } from './clients.repository.ts';

export { cityKey } from './clients.repository.ts';

/*
 * What the public may see of the clients (spec §7 "Public"). Inactive clients do not exist for the
 * public: every lookup answers 404 for them. Test clients (IsProduction false) answer by URL but are
 * not listed in the states and cities pickers.
 */

/** Every spelling a state may be typed or stored as: the name and USPS abbreviation, or the value itself. */
export function stateSpellings(value: string): string[] {
  const name = resolveStateName(value);
  if (!name) return [value.trim().replace(/\s+/g, ' ')];
  const abbreviation = stateAbbreviation(name);
  return abbreviation ? [name, abbreviation] : [name];
}

// Sorted the same on every engine and locale: the database's collation is not involved.
const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true }).compare;
const uniqueSorted = (values: string[]) => {
  const seen = new Map<string, string>();
  for (const v of values) if (!seen.has(v.toLowerCase())) seen.set(v.toLowerCase(), v);
  return [...seen.values()].sort(byName);
};

const municipalityNotFound = () => notFound('Unable to find municipality');

/**
 * The public record of a town as its pages get it (GET /api/client/{id}, and index.html of its pages),
 * saying whether it has a parcel map: the pages ask for the map's data only then, so a town without
 * one sees no failed request.
 */
export async function publicClientOf(db: Executor, row: ClientRow): Promise<PublicClient> {
  const town = { ...toPublicClient(row), ...(await rollDatesOf(db, row)) };
  return (await parcelLayersService.hasLayer(db, row.id)) ? { ...town, HasParcelMap: true } : town;
}

/** Per database (two apps over two databases share this module in the tests, and roll ids repeat). */
const datingCaches = new WeakMap<Executor, LRUCache<number, RollDating, { db: Executor }>>();

/**
 * What the town's published roll dates from, as its search results and pages say it: when it was
 * published, its fiscal year and the date its values are as of. A roll's dating is read once (a roll
 * never changes once published); a few are kept.
 */
export async function rollDatesOf(db: Executor, row: ClientRow): Promise<RollDates> {
  const LastUpdated = row.lastUpdated ? row.lastUpdated.toISOString() : null;
  const rollId = row.activeRollId;
  if (rollId === null) return { LastUpdated, TaxYear: null, ValuationDate: null };
  let datingCache = datingCaches.get(db);
  if (!datingCache)
    datingCaches.set(
      db,
      (datingCache = new LRUCache({
        max: 64,
        fetchMethod: (id, _stale, { context }) => rollsService.dating(context.db, id),
      })),
    );
  const { fiscalYear, valuationDate } = (await datingCache.fetch(rollId, { context: { db } }))!;
  return { LastUpdated, TaxYear: fiscalYear, ValuationDate: valuationDate };
}

export const publicClientsService = {
  /** Names of the states with at least one listed client, sorted. */
  async listStates(db: Executor): Promise<string[]> {
    const states = await clientsRepository.listListedStates(db);
    return uniqueSorted(states.map((s) => resolveStateName(s) ?? s));
  },

  /** Names of a state's listed clients, sorted. A state nobody is listed in has none. */
  async listCities(db: Executor, state: string): Promise<string[]> {
    return uniqueSorted(await clientsRepository.listListedCities(db, stateSpellings(state)));
  },

  /**
   * The active client at a state (name or abbreviation) and city, also under an earlier name of a
   * renamed town so old links keep working. Throws 404 for unknown and inactive clients.
   */
  async findByStateCity(db: Executor, state: string, city: string): Promise<ClientRow> {
    const client =
      (await clientsRepository.findByStateSpellingsCity(db, stateSpellings(state), city)) ??
      (await clientsRepository.findByAlias(db, resolveStateName(state) ?? state, city));
    if (!client?.isActive) throw municipalityNotFound();
    return client;
  },

  /** `GET /api/client/{state}/{city}`: the id, and whether the caller may administer it. */
  async lookup(db: Executor, state: string, city: string, actor: Actor | null): Promise<ClientLookup> {
    const client = await this.findByStateCity(db, state, city);
    return { ClientID: client.id, TokenValid: canAdministerClient(actor, client.id) };
  },

  /** An active client by id; 404 for unknown and inactive ones. */
  async requireVisible(db: Executor, id: number): Promise<ClientRow> {
    const client = await clientsRepository.findById(db, id);
    if (!client?.isActive) throw municipalityNotFound();
    return client;
  },

  /**
   * `GET /api/client/{id}`: the public record. A provider administrator asking with showinactive
   * also sees inactive clients; anyone else gets 404 for them, as if they did not exist.
   */
  async getById(
    db: Executor,
    id: number,
    options: { actor: Actor | null; showInactive: boolean },
  ): Promise<PublicClient> {
    const client = await clientsRepository.findById(db, id);
    if (!client) throw municipalityNotFound();
    if (!client.isActive && !(options.showInactive && isProviderAdmin(options.actor)))
      throw municipalityNotFound();
    return publicClientOf(db, client);
  },
};

/**
 * What other features may do with any client, inactive ones included (a feature uses another only
 * through its service): find one to check it exists, and point it at its banner.
 */
export const clientsService = {
  /** A client by id, active or not; null when there is none. */
  async findById(db: Executor, id: number): Promise<ClientRow | null> {
    return clientsRepository.findById(db, id);
  },

  /** Sets (or clears, with null) the client's banner; null when there is no such client. */
  async setBanner(db: Executor, id: number, bannerImage: string | null): Promise<ClientRow | null> {
    return clientsRepository.update(db, id, { bannerImage });
  },

  /** By canonical state name and city, inactive clients included (the demo reuses its towns). */
  async findByStateCity(db: Executor, stateName: string, city: string): Promise<ClientRow | null> {
    return clientsRepository.findByStateCity(db, stateName, city);
  },

  /** A new client row, as the demo seeds it (the provider console creates clients with its checks). */
  async insert(db: Executor, values: Parameters<typeof clientsRepository.insert>[1]): Promise<ClientRow> {
    return clientsRepository.insert(db, values);
  },
};
