import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { PublicClient } from '@opp/contracts';
import type { Executor } from '../../db/database.ts';
import { clientCityAliases, clients } from '../../db/schema.ts';

export type ClientRow = typeof clients.$inferSelect;

/** The §3 client as the API returns it (internal columns such as active_roll_id stay inside). */
export function toPublicClient(c: ClientRow): PublicClient {
  return {
    ClientID: c.id,
    City: c.city,
    StateProvince: c.stateProvince,
    Country: c.country,
    Description: c.description,
    BannerImage: c.bannerImage,
    IsActive: c.isActive,
    IsProduction: c.isProduction,
    AllowsImage: c.allowsImage,
    PictureLevel: c.pictureLevel,
    AllowPaymentLink: c.allowPaymentLink,
    PaymentLink: c.paymentLink,
    ParcelCount: c.parcelCount,
    LastUpdated: c.lastUpdated ? c.lastUpdated.toISOString() : null,
    PublishOwnerNames: c.publishOwnerNames,
    OwnerNameSearch: c.ownerNameSearch,
  };
}

/** City names compare case-insensitively with runs of spaces folded ("south  portland" = "South Portland"). */
export const cityKey = (city: string) => city.trim().replace(/\s+/g, ' ').toLowerCase();

const lowered = (values: string[]) => [...new Set(values.map((v) => v.trim().toLowerCase()))];

export const clientsRepository = {
  async findById(db: Executor, id: number): Promise<ClientRow | null> {
    const [row] = await db.select().from(clients).where(eq(clients.id, id)).limit(1);
    return row ?? null;
  },

  /** By canonical state name and city (case-insensitive), including inactive clients. */
  async findByStateCity(db: Executor, stateName: string, city: string): Promise<ClientRow | null> {
    const [row] = await db
      .select()
      .from(clients)
      .where(and(eq(clients.stateProvince, stateName), sql`lower(${clients.city}) = ${cityKey(city)}`))
      .limit(1);
    return row ?? null;
  },

  /** A client's earlier name (after a rename), so old URLs can redirect. */
  async findByAlias(db: Executor, stateName: string, city: string): Promise<ClientRow | null> {
    const [row] = await db
      .select({ client: clients })
      .from(clientCityAliases)
      .innerJoin(clients, eq(clients.id, clientCityAliases.clientId))
      .where(
        and(eq(clientCityAliases.stateProvince, stateName), eq(clientCityAliases.cityKey, cityKey(city))),
      )
      .limit(1);
    return row?.client ?? null;
  },

  /** By any spelling of the state (compared case-insensitively) and city, including inactive clients. */
  async findByStateSpellingsCity(db: Executor, states: string[], city: string): Promise<ClientRow | null> {
    const [row] = await db
      .select()
      .from(clients)
      .where(
        and(
          inArray(sql`lower(${clients.stateProvince})`, lowered(states)),
          sql`lower(${clients.city}) = ${cityKey(city)}`,
        ),
      )
      .orderBy(asc(clients.id))
      .limit(1);
    return row ?? null;
  },

  /** States of the publicly listed clients: active and production (test clients are reached by URL only). */
  async listListedStates(db: Executor): Promise<string[]> {
    const rows = await db
      .selectDistinct({ state: clients.stateProvince })
      .from(clients)
      .where(and(eq(clients.isActive, true), eq(clients.isProduction, true)));
    return rows.map((r) => r.state);
  },

  /** Cities of the publicly listed clients in a state given by any of its spellings. */
  async listListedCities(db: Executor, states: string[]): Promise<string[]> {
    const rows = await db
      .select({ city: clients.city })
      .from(clients)
      .where(
        and(
          eq(clients.isActive, true),
          eq(clients.isProduction, true),
          inArray(sql`lower(${clients.stateProvince})`, lowered(states)),
        ),
      );
    return rows.map((r) => r.city);
  },

  async listAll(db: Executor): Promise<ClientRow[]> {
    return db
      .select()
      .from(clients)
      .orderBy(asc(sql`lower(${clients.city})`), asc(clients.stateProvince));
  },

  async insert(db: Executor, values: typeof clients.$inferInsert): Promise<ClientRow> {
    const [row] = await db.insert(clients).values(values).returning();
    return row!;
  },

  async update(
    db: Executor,
    id: number,
    values: Partial<typeof clients.$inferInsert>,
  ): Promise<ClientRow | null> {
    const [row] = await db.update(clients).set(values).where(eq(clients.id, id)).returning();
    return row ?? null;
  },

  /** Every name taken in a state: each client's current name and each of its old names (aliases). */
  async listNamesInState(db: Executor, stateName: string): Promise<{ clientId: number; name: string }[]> {
    const current = await db
      .select({ clientId: clients.id, name: clients.city })
      .from(clients)
      .where(eq(clients.stateProvince, stateName));
    const old = await db
      .select({ clientId: clientCityAliases.clientId, name: clientCityAliases.cityKey })
      .from(clientCityAliases)
      .where(eq(clientCityAliases.stateProvince, stateName));
    return [...current, ...old];
  },

  /**
   * Records the client's old name (its latest leaving, if it held the name before), drops the alias of
   * the name it takes now, and keeps only its `keep` most recently left old names.
   */
  async moveAliases(
    db: Executor,
    clientId: number,
    old: { stateName: string; city: string } | null,
    now: { stateName: string; city: string },
    keep: number,
  ) {
    await db
      .delete(clientCityAliases)
      .where(
        and(
          eq(clientCityAliases.clientId, clientId),
          eq(clientCityAliases.stateProvince, now.stateName),
          eq(clientCityAliases.cityKey, cityKey(now.city)),
        ),
      );
    if (old)
      await db
        .insert(clientCityAliases)
        .values({ stateProvince: old.stateName, cityKey: cityKey(old.city), clientId })
        .onConflictDoUpdate({
          target: [clientCityAliases.stateProvince, clientCityAliases.cityKey],
          set: { clientId, leftAt: sql`now()` },
        });
    await db.execute(sql`
      delete from client_city_aliases a
       where a.client_id = ${clientId}
         and (a.state_province, a.city_key) not in (
           select k.state_province, k.city_key from client_city_aliases k
            where k.client_id = ${clientId}
            order by k.left_at desc, k.city_key
            limit ${keep})`);
  },
};
