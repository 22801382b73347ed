import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/database.ts';
import { clients, importRuns, properties } from '../../db/schema.ts';
import type { PropertyRow } from '../properties/property-row.ts';

export type ImportRun = typeof importRuns.$inferSelect;

/**
 * A roll is the set of property rows written by one import run (roll_id = import_runs.id). The public
 * only ever reads the client's active roll, so a new roll is written beside the old one and made
 * visible by a single UPDATE: readers see the old roll or the new one, never a mix.
 */
export const rollsRepository = {
  async createRun(
    db: Executor,
    run: { clientId: number; userId: number | null; actor: string; fileName: string },
  ): Promise<ImportRun> {
    const [row] = await db
      .insert(importRuns)
      .values({
        ...run,
        status: 'validating',
        totalRecords: 0,
        importedRecords: 0,
        errorCount: 0,
        errors: [],
      })
      .returning();
    return row!;
  },

  async findRun(db: Executor, id: number): Promise<ImportRun | null> {
    const [row] = await db.select().from(importRuns).where(eq(importRuns.id, id)).limit(1);
    return row ?? null;
  },

  async listRuns(db: Executor, clientId: number, limit = 50): Promise<ImportRun[]> {
    return db
      .select()
      .from(importRuns)
      .where(eq(importRuns.clientId, clientId))
      .orderBy(desc(importRuns.id))
      .limit(limit);
  },

  /** A run in progress for the client (at most one may run at a time). */
  async findRunning(db: Executor, clientId: number): Promise<ImportRun | null> {
    const [row] = await db
      .select()
      .from(importRuns)
      .where(and(eq(importRuns.clientId, clientId), inArray(importRuns.status, ['validating', 'importing'])))
      .limit(1);
    return row ?? null;
  },

  async updateProgress(
    db: Executor,
    id: number,
    patch: Partial<Pick<ImportRun, 'status' | 'totalRecords' | 'importedRecords'>>,
  ) {
    await db
      .update(importRuns)
      .set({ ...patch, heartbeatAt: sql`now()` })
      .where(eq(importRuns.id, id));
  },

  async fail(db: Executor, id: number, message: string, errors: string[], errorCount: number) {
    await db
      .update(importRuns)
      .set({ status: 'failed', message, errors: errors.slice(0, 100), errorCount, finishedAt: sql`now()` })
      .where(eq(importRuns.id, id));
  },

  /**
   * Writes a batch of rows as ONE parameter (a JSON array unpacked by jsonb_to_recordset): a few thousand
   * bound parameters per statement cost more in the driver than the rows cost the database, and parsing
   * the batch once as jsonb beats parsing each record (measured: ~40% faster on PGlite).
   */
  async insertRows(db: Executor, rollId: number, clientId: number, rows: PropertyRow[]) {
    if (rows.length === 0) return;
    const payload = JSON.stringify(
      rows.map((r) => ({
        account: r.account,
        account_key: r.accountKey,
        record: r.record,
        summary: r.summary,
        map_lot_key: r.mapLotKey,
        name_key: r.nameKey,
        location_key: r.locationKey,
        building_land: r.buildingLand,
        total_acres: r.totalAcres,
        sale_date: r.saleDate,
        sale_price: r.salePrice,
        living_area: r.livingArea,
        bedrooms: r.bedrooms,
        bathrooms: r.bathrooms,
        has_residential: r.hasResidential,
        has_commercial: r.hasCommercial,
        land_types: r.landTypes,
        building_styles: r.buildingStyles,
        search_text: r.searchText,
      })),
    );
    await db.execute(sql`
      insert into properties (roll_id, client_id, account, account_key, record, summary, map_lot_key, name_key,
                              location_key, building_land, total_acres, sale_date, sale_price, living_area,
                              bedrooms, bathrooms, has_residential, has_commercial, land_types, building_styles,
                              search_doc)
      select ${rollId}::int, ${clientId}::int, x.account, x.account_key, x.record, x.summary, x.map_lot_key,
             x.name_key, x.location_key, x.building_land, x.total_acres, x.sale_date, x.sale_price,
             x.living_area, x.bedrooms, x.bathrooms, x.has_residential, x.has_commercial,
             array(select jsonb_array_elements_text(x.land_types)),
             array(select jsonb_array_elements_text(x.building_styles)),
             to_tsvector('simple', x.search_text)
        from jsonb_to_recordset(${payload}::jsonb) as x(
             account text, account_key text, record jsonb, summary jsonb, map_lot_key text, name_key text,
             location_key text, building_land float8, total_acres float8, sale_date date, sale_price float8,
             living_area float8, bedrooms float8, bathrooms float8, has_residential boolean,
             has_commercial boolean, land_types jsonb, building_styles jsonb, search_text text)`);
  },

  /**
   * Makes the roll the client's published one and records the run as succeeded, in one transaction.
   * Returns the previous roll id, whose rows the caller deletes afterwards (outside the swap).
   */
  async activate(db: Executor, clientId: number, rollId: number, count: number): Promise<number | null> {
    return db.transaction(async (tx) => {
      const [before] = await tx
        .select({ activeRollId: clients.activeRollId })
        .from(clients)
        .where(eq(clients.id, clientId))
        .for('update');
      await tx
        .update(clients)
        .set({ activeRollId: rollId, parcelCount: count, lastUpdated: sql`now()` })
        .where(eq(clients.id, clientId));
      await tx
        .update(importRuns)
        .set({
          status: 'succeeded',
          totalRecords: count,
          importedRecords: count,
          finishedAt: sql`now()`,
          heartbeatAt: sql`now()`,
        })
        .where(eq(importRuns.id, rollId));
      return before?.activeRollId ?? null;
    });
  },

  async deleteRollRows(db: Executor, rollId: number) {
    await db.delete(properties).where(eq(properties.rollId, rollId));
  },

  /**
   * Rows of rolls that are neither published nor being written: left by a crash or a failed import.
   * A run whose heartbeat stopped more than `staleSeconds` ago is marked failed first.
   */
  async sweepAbandoned(db: Executor, staleSeconds: number): Promise<number> {
    await db.execute(sql`
      update import_runs set status = 'failed', message = 'Interrupted (the server stopped during the import)',
             finished_at = now()
       where status in ('validating', 'importing')
         and heartbeat_at < now() - make_interval(secs => ${staleSeconds})`);
    const rows = await queryRows<{ roll_id: number }>(
      db,
      sql`select distinct p.roll_id from properties p
            join import_runs r on r.id = p.roll_id
           where r.status = 'failed'
              or (r.status = 'succeeded' and not exists (select 1 from clients c where c.active_roll_id = p.roll_id))`,
    );
    for (const r of rows) await this.deleteRollRows(db, r.roll_id);
    return rows.length;
  },
};
