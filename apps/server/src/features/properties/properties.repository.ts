import { sql } from 'drizzle-orm';
import type { PropertyRecord } from '@opp/contracts';
import { queryRows, type Executor } from '../../db/database.ts';

export const propertiesRepository = {
  /** One parcel's full record in a roll (primary-key lookup), or null. */
  async findRecord(db: Executor, rollId: number, account: string): Promise<PropertyRecord | null> {
    const rows = await queryRows<{ record: PropertyRecord }>(
      db,
      sql`select p.record from properties p where p.roll_id = ${rollId} and p.account = ${account} limit 1`,
    );
    return rows[0]?.record ?? null;
  },
};
