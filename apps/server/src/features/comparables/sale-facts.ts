import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Executor } from '../../db/database.ts';
import { textAt } from '../../lib/typed-columns.ts';
import { recordOfAccount, type ParcelIndex } from '../parcels/parcel-index.ts';
import { comparablesRepository } from './comparables.repository.ts';
import { dayOf } from './sale-rules.ts';

/*
 * What comparables sift candidates by before reading any full record, per parcel index (a layer joined
 * to a published roll, which never changes): each record's latest sale day, living area and year built,
 * from the roll's search rows, in typed arrays numbered as the index numbers its records. A record whose
 * latest sale is before the period has no sale in it; one outside the living-area range is not
 * comparable; only the few left are read in full. A county's 850,000 sold records take 14 MB.
 */

/** No sale. */
const NONE = -2_147_483_648;
const TURN_ROWS = 8192;

export interface SaleFacts {
  /** The latest sale's day (days since 1970), NONE without one. */
  saleDay: Int32Array;
  /** Living area in square feet, NaN without one. */
  livingArea: Float64Array;
  /** Year built, 0 without one. */
  yearBuilt: Int16Array;
  /** The latest sale day of the roll's records on the layer, or null when none has a sale. */
  lastSaleDay: number | null;
}

export const hasSaleSince = (facts: SaleFacts, k: number, day: number) =>
  facts.saleDay[k]! !== NONE && facts.saleDay[k]! >= day;

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function loadSaleFacts(db: Executor, index: ParcelIndex): Promise<SaleFacts> {
  const m = index.byAccount.length;
  const facts: SaleFacts = {
    saleDay: new Int32Array(m).fill(NONE),
    livingArea: new Float64Array(m).fill(NaN),
    yearBuilt: new Int16Array(m),
    lastSaleDay: null,
  };
  // Rows come in the database's account order, nearly always the index's: a cursor finds most records
  // without a search; the rest (another collation's order, an account without a shape) are looked up.
  let cursor = 0;
  for await (const batch of comparablesRepository.soldBatches(db, index.rollId))
    for (const [i, row] of batch.entries()) {
      if (i % TURN_ROWS === TURN_ROWS - 1) await nextTurn();
      while (cursor < m && compareText(textAt(index.accounts, index.byAccount[cursor]!), row.account) < 0)
        cursor++;
      const k =
        cursor < m && textAt(index.accounts, index.byAccount[cursor]!) === row.account
          ? index.byAccount[cursor]!
          : recordOfAccount(index, row.account);
      if (k === undefined || row.saleDate === null) continue;
      const day = dayOf(row.saleDate);
      facts.saleDay[k] = day;
      if (row.livingArea !== null) facts.livingArea[k] = row.livingArea;
      if (row.yearBuilt !== null) facts.yearBuilt[k] = row.yearBuilt;
      if (facts.lastSaleDay === null || day > facts.lastSaleDay) facts.lastSaleDay = day;
    }
  return facts;
}

const held = new WeakMap<ParcelIndex, Promise<SaleFacts>>();

/** The sale facts of an index's records, read once per index (and gone with it). */
export function saleFactsOf(db: Executor, index: ParcelIndex): Promise<SaleFacts> {
  let facts = held.get(index);
  if (!facts) {
    facts = loadSaleFacts(db, index);
    held.set(index, facts);
    facts.catch(() => held.delete(index));
  }
  return facts;
}
