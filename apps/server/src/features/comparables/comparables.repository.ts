import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/database.ts';

/** What comparables read of a record's search row: its latest sale, living area and year built. */
export interface SaleFactsRow {
  account: string;
  /** The most recent sale's date (YYYY-MM-DD), null when the record has none. */
  saleDate: string | null;
  /** Square feet: the residential buildings' areas added (search's `living_area`). */
  livingArea: number | null;
  /** The newest building's year (search's `year_built`). */
  yearBuilt: number | null;
}

/** Rows read a statement when a county's sold records are read (in parts, never held twice). */
const BATCH = 50_000;

export const comparablesRepository = {
  /** The records of a roll that have a dated sale, in account order, a batch at a time. */
  async *soldBatches(db: Executor, rollId: number, size = BATCH): AsyncGenerator<SaleFactsRow[]> {
    for (let after: string | null = null; ;) {
      const rows: SaleFactsRow[] = await queryRows<SaleFactsRow>(
        db,
        sql`select account, sale_date::text as "saleDate", living_area as "livingArea",
                   year_built as "yearBuilt"
              from properties
             where roll_id = ${rollId} and sale_date is not null
                   ${after === null ? sql`` : sql`and account > ${after}`}
             order by account limit ${size}`,
      );
      if (rows.length > 0) yield rows;
      if (rows.length < size) return;
      after = rows[rows.length - 1]!.account;
    }
  },

  /** One record's facts, or null when the roll has no such account. */
  async facts(db: Executor, rollId: number, account: string): Promise<SaleFactsRow | null> {
    const rows = await queryRows<SaleFactsRow>(
      db,
      sql`select account, sale_date::text as "saleDate", living_area as "livingArea",
                 year_built as "yearBuilt"
            from properties where roll_id = ${rollId} and account = ${account}`,
    );
    return rows[0] ?? null;
  },
};
