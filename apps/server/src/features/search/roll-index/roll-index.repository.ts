import { sql } from 'drizzle-orm';
import { escapeLiteral } from 'pg';
import type { SearchResult } from '@opp/contracts';
import { copyTo, queryRows, type Executor } from '../../../db/database.ts';
import { ownerNamesSearchable } from '../../properties/owner-privacy.ts';
import { INDEX_COLUMNS, RESULT_SELECT, searchResultOf, type ResultRow } from '../search-columns.ts';
import { batchEnd } from './roll-index.rows.ts';

/** The index's select list (search-columns.ts): the account first, as batchEnd reads it. */
const SELECT_LIST = INDEX_COLUMNS.map((c) => c.read ?? c.name).join(', ');
/** The same for a town whose owner names are not searchable (properties/owner-privacy.ts). */
const SELECT_LIST_WITHOUT_OWNER_NAMES = INDEX_COLUMNS.map(
  (c) => c.readWithoutOwnerNames ?? c.read ?? c.name,
).join(', ');

/** A batch of index rows (roll-index.rows.ts reads them), how many, and the last one's account. */
interface IndexRowBatch {
  bytes: Uint8Array;
  rows: number;
  lastAccount: string | null;
}

interface ActiveRoll {
  clientId: number;
  rollId: number;
  parcelCount: number;
  /** The town's owner names are not searchable: its index is built without their words. */
  withoutOwnerNames: boolean;
}

export const rollIndexRepository = {
  /**
   * One batch of a roll's rows after `afterAccount`, by primary key (an index range scan, so each batch
   * costs its own rows only and the embedded engine is free between batches), in COPY's text format:
   * roll-index.rows.ts reads them, in the order of INDEX_COLUMNS.
   */
  async readBatch(
    db: Executor,
    rollId: number,
    afterAccount: string | null,
    limit: number,
    withoutOwnerNames = false,
  ): Promise<IndexRowBatch> {
    if (!Number.isSafeInteger(rollId) || !Number.isSafeInteger(limit))
      throw new Error('readBatch takes whole numbers');
    // COPY takes no parameters: the values are written in (the integers checked above, the text quoted).
    const after = afterAccount === null ? '' : `and account > ${escapeLiteral(afterAccount)}`;
    const bytes = await copyTo(
      db,
      `select ${withoutOwnerNames ? SELECT_LIST_WITHOUT_OWNER_NAMES : SELECT_LIST}
         from properties
        where roll_id = ${rollId} ${after}
        order by account
        limit ${limit}`,
    );
    return { bytes, ...batchEnd(bytes) };
  },

  /**
   * The search results of some parcels of a roll, by primary key, in the order asked (missing ones left
   * out); `summaryOnly` for what needs no result column (type-ahead: reading them cost it a tenth).
   */
  async results(
    db: Executor,
    rollId: number,
    accounts: string[],
    { summaryOnly = false } = {},
  ): Promise<SearchResult[]> {
    if (accounts.length === 0) return [];
    const rows = await queryRows<ResultRow & { account: string }>(
      db,
      sql`select p.account, ${sql.raw(summaryOnly ? 'p.summary' : RESULT_SELECT)} from properties p
           where p.roll_id = ${rollId}
             and p.account = any(array(select jsonb_array_elements_text(${JSON.stringify(accounts)}::jsonb)))`,
    );
    const byAccount = new Map(rows.map((r) => [r.account, searchResultOf(r)]));
    return accounts.map((a) => byAccount.get(a)).filter((s): s is SearchResult => s !== undefined);
  },

  /** The published rolls of active clients, largest first (what a starting node warms). */
  async activeRolls(db: Executor): Promise<ActiveRoll[]> {
    const rows = await queryRows<{
      id: number;
      active_roll_id: number;
      parcel_count: number;
      publish_owner_names: boolean;
      owner_name_search: boolean;
    }>(
      db,
      sql`select id, active_roll_id, parcel_count, publish_owner_names, owner_name_search
            from clients
           where is_active and active_roll_id is not null
           order by parcel_count desc, id`,
    );
    return rows.map((r) => ({
      clientId: r.id,
      rollId: r.active_roll_id,
      parcelCount: r.parcel_count,
      withoutOwnerNames: !ownerNamesSearchable({
        publishOwnerNames: r.publish_owner_names,
        ownerNameSearch: r.owner_name_search,
      }),
    }));
  },
};
