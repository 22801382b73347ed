import { sql } from 'drizzle-orm';
import type { FullProperty, ValuationYear } from '@opp/contracts';
import { queryRows, type Executor } from '../../db/database.ts';
import type { PublicRecordOwners } from './owner-privacy.ts';
import { unpackRecordValue } from './record-codec.ts';

/**
 * A record as stored (checked at import against the record contract), with its ValueHistory: what the
 * public may see of it is the record presenter's to say (properties.service.ts), not this type's.
 */
export type StoredRecord = Omit<FullProperty, 'Owners' | 'Sales' | 'SuppressOwner' | 'LastUpdated'> &
  PublicRecordOwners;

/** The most years a record answer lists (the contract's limit of a roll's own ValueHistory). */
const HISTORY_YEARS = 200;

/**
 * Records of a roll (one account, or all) with their ValueHistory from the town's valuation history
 * (migrations/0022): every year but the roll's own (its `history_year`: its values are the record's)
 * unless the roll's file listed it, newest first.
 */
async function recordsWithHistory(
  db: Executor,
  roll: { clientId: number; rollId: number },
  account: string | null,
): Promise<StoredRecord[]> {
  const { clientId, rollId } = roll;
  const rows = await queryRows<{ record: string; history: string }>(
    db,
    // A roll imported before migration 0009 holds its records in `properties.record`.
    sql`select coalesce(r.record, p.record) as record,
               (select coalesce(json_agg(json_build_array(h.year, h.land_value, h.building_value,
                                                          h.total_value)
                                        order by h.year desc), '[]')::text
                  from (select year, land_value, building_value, total_value
                          from value_history
                         where client_id = ${clientId} and account = p.account
                           and (year <> (select history_year from import_runs where id = ${rollId}) or listed)
                         order by year desc
                         limit ${HISTORY_YEARS}) h) as history
          from properties p
          left join property_records r on r.roll_id = p.roll_id and r.account = p.account
         where p.roll_id = ${rollId} ${account === null ? sql`` : sql`and p.account = ${account} limit 1`}`,
  );
  return rows.map((row) => {
    const record = unpackRecordValue(row.record);
    const lines = JSON.parse(row.history) as [number, number | null, number | null, number | null][];
    record.ValueHistory = lines.map(([Year, LandValue, BuildingValue, TotalValue]): ValuationYear => ({
      Year,
      LandValue,
      BuildingValue,
      TotalValue,
    }));
    return record as unknown as StoredRecord;
  });
}

export const propertiesRepository = {
  /**
   * One parcel's full record in a roll (primary-key lookups), as it unpacks (record-codec.ts), with its
   * ValueHistory (recordsWithHistory); or null.
   */
  async findRecord(
    db: Executor,
    roll: { clientId: number; rollId: number },
    account: string,
  ): Promise<StoredRecord | null> {
    const [record] = await recordsWithHistory(db, roll, account);
    return record ?? null;
  },

  /** Every record of a roll as the record answer reads them (findRecord). */
  async findRecords(db: Executor, roll: { clientId: number; rollId: number }): Promise<StoredRecord[]> {
    return recordsWithHistory(db, roll, null);
  },
};
