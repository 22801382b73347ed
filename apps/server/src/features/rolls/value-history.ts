import type { PropertyRecord, ValuationYear } from '@opp/contracts';
import { COPY_NULL, copyNumber, copyText } from '../../db/copy-text.ts';

/*
 * Valuation history (issues 39, 45, 46): the table `value_history` (migrations/0022) holds, for each
 * town, account and year, the values published for that year. What a roll adds to it is written as the
 * roll is loaded, into the roll's own `value_history_r{id}` (rolls.repository.ts), and moved into
 * the table by the transaction that publishes the roll: nothing is visible before, and a rejected
 * file adds nothing. A year the roll's file lists is as the file gives it (an assessing system's
 * history wins); the roll's own year otherwise holds its records' values, which the record answer shows
 * as the current ones, not as history (properties.repository.ts); every other year holds what the roll
 * published for it, replaced by a later roll of the same year (a correction is not history).
 */

/** The columns of a roll's history table, in the order copyHistoryRows writes them. */
export const HISTORY_COPY_COLUMNS = 'account, year, land_value, building_value, total_value';

/**
 * A record's own values as one year's line: its land, its building, and its total, which is the
 * assessment the record gives (Taxable plus TotalExemption: outbuildings and extra features included,
 * as the office's total is), or with no Taxable its land plus building. Null when it gives none.
 */
export function recordValues(r: PropertyRecord): Omit<ValuationYear, 'Year'> | null {
  const land = r.LandValue;
  const building = r.TotalBuildingValue;
  const TotalValue =
    r.Taxable !== null
      ? r.Taxable + (r.TotalExemption ?? 0)
      : land !== null || building !== null
        ? (land ?? 0) + (building ?? 0)
        : null;
  if (TotalValue === null) return null;
  return { LandValue: land, BuildingValue: building, TotalValue };
}

/**
 * The lines a record adds to its town's history, in COPY's text format (each ending in a line break):
 * its own values, under the roll's year (no year here: the roll's is known once every record is read),
 * then each year of the ValueHistory its file gives (an assessing system's), the first line of a year
 * kept. Empty for a record that gives neither.
 */
export function copyHistoryRows(r: PropertyRecord): string {
  const account = copyText(r.Account);
  const own = recordValues(r);
  let text = own ? line(account, COPY_NULL, own) : '';
  const history = r.ValueHistory;
  for (let i = 0; i < history.length; i++) {
    const h = history[i]!;
    let repeated = false;
    for (let j = 0; j < i && !repeated; j++) repeated = history[j]!.Year === h.Year;
    if (!repeated) text += line(account, String(h.Year), h);
  }
  return text;
}

function line(account: string, year: string, v: Omit<ValuationYear, 'Year'>): string {
  return `${account}\t${year}\t${copyNumber(v.LandValue)}\t${copyNumber(v.BuildingValue)}\t${copyNumber(v.TotalValue)}\n`;
}
