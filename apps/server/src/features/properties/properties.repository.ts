import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/database.ts';
import { unpackRecord } from './record-codec.ts';

export const propertiesRepository = {
  /**
   * One parcel's full record in a roll as JSON text (primary-key lookup), or null. Text, not an object:
   * the record was validated at import and is sent as it unpacks (record-codec.ts).
   */
  async findRecordJson(db: Executor, rollId: number, account: string): Promise<string | null> {
    const rows = await queryRows<{ record: string }>(
      db,
      // A roll imported before migration 0009 holds its records in `properties.record`.
      sql`select coalesce(r.record, p.record) as record
            from properties p
            left join property_records r on r.roll_id = p.roll_id and r.account = p.account
           where p.roll_id = ${rollId} and p.account = ${account} limit 1`,
    );
    const stored = rows[0]?.record;
    return stored === undefined ? null : unpackRecord(stored);
  },
};
