import { sql } from 'drizzle-orm';
import type { PropertySummary } from '@opp/contracts';
import { queryRows, type Executor } from '../../../db/database.ts';
import type { IndexSourceRow } from './roll-index.ts';

interface SourceRow {
  account: string;
  account_key: string;
  map_lot_key: string | null;
  name_key: string | null;
  location_key: string | null;
  building_land: number | null;
  total_acres: number | null;
  sale_date: string | null;
  sale_price: number | null;
  living_area: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  has_residential: boolean;
  has_commercial: boolean;
  land_types: string[];
  building_styles: string[];
  words: string[];
  codes: string[];
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

export interface ActiveRoll {
  clientId: number;
  rollId: number;
  parcelCount: number;
}

export const rollIndexRepository = {
  /**
   * One batch of a roll's rows after `afterAccount`, by primary key (an index range scan, so each batch
   * costs its own rows only and the embedded engine is free between batches).
   */
  async readBatch(
    db: Executor,
    rollId: number,
    afterAccount: string | null,
    limit: number,
  ): Promise<IndexSourceRow[]> {
    const after = afterAccount === null ? sql`` : sql`and account > ${afterAccount}`;
    const rows = await queryRows<SourceRow>(
      db,
      sql`select account, account_key, map_lot_key, name_key, location_key, building_land, total_acres,
                 sale_date::text as sale_date, sale_price, living_area, bedrooms, bathrooms,
                 has_residential, has_commercial, land_types, building_styles,
                 tsvector_to_array(search_doc) as words, codes
            from properties
           where roll_id = ${rollId} ${after}
           order by account
           limit ${limit}`,
    );
    return rows.map((r) => ({
      account: r.account,
      accountKey: r.account_key,
      mapLotKey: r.map_lot_key,
      nameKey: r.name_key,
      locationKey: r.location_key,
      buildingLand: num(r.building_land),
      totalAcres: num(r.total_acres),
      saleDate: r.sale_date,
      salePrice: num(r.sale_price),
      livingArea: num(r.living_area),
      bedrooms: num(r.bedrooms),
      bathrooms: num(r.bathrooms),
      hasResidential: r.has_residential,
      hasCommercial: r.has_commercial,
      landTypes: r.land_types ?? [],
      buildingStyles: r.building_styles ?? [],
      words: r.words ?? [],
      codes: r.codes ?? [],
    }));
  },

  /** The summaries of some parcels of a roll, by primary key, in the order asked (missing ones left out). */
  async summaries(db: Executor, rollId: number, accounts: string[]): Promise<PropertySummary[]> {
    if (accounts.length === 0) return [];
    const rows = await queryRows<{ account: string; summary: PropertySummary }>(
      db,
      sql`select account, summary from properties
           where roll_id = ${rollId}
             and account = any(array(select jsonb_array_elements_text(${JSON.stringify(accounts)}::jsonb)))`,
    );
    const byAccount = new Map(rows.map((r) => [r.account, r.summary]));
    return accounts.map((a) => byAccount.get(a)).filter((s): s is PropertySummary => s !== undefined);
  },

  /** The published rolls of active clients, largest first (what a starting node warms). */
  async activeRolls(db: Executor): Promise<ActiveRoll[]> {
    const rows = await queryRows<{ id: number; active_roll_id: number; parcel_count: number }>(
      db,
      sql`select id, active_roll_id, parcel_count from clients
           where is_active and active_roll_id is not null
           order by parcel_count desc, id`,
    );
    return rows.map((r) => ({ clientId: r.id, rollId: r.active_roll_id, parcelCount: r.parcel_count }));
  },
};
