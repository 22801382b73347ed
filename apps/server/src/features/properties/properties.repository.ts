import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/database.ts';

export const propertiesRepository = {
  /**
   * One parcel's full record in a roll as the JSON text it is stored as (primary-key lookup), or
   * null. Text, not an object: the record was validated at import and is sent as stored.
   */
  async findRecordJson(db: Executor, rollId: number, account: string): Promise<string | null> {
    const rows = await queryRows<{ record: string }>(
      db,
      sql`select p.record::text as record from properties p
           where p.roll_id = ${rollId} and p.account = ${account} limit 1`,
    );
    return rows[0]?.record ?? null;
  },
};
