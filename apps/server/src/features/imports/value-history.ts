import { fastChecks, PropertyRecord, type ValuationYear } from '@opp/contracts';

/*
 * Issue 39, History: what publishing a roll carries into its records from the roll it replaces. The
 * replaced roll's part is read once before the file (rolls.repository.ts carriedHistory: for each
 * account, its history and its values under that roll's year, as the stored list's JSON text), and each
 * record of the new file takes its account's entry as it is checked, before it is packed: nothing is
 * written twice, and a rejected file leaves everything as it was.
 */

/** Each account's carried list, `[[Year, LandValue, BuildingValue, TotalValue], …]` as JSON text. */
export type CarriedHistory = ReadonlyMap<string, string>;

/** The longest ValueHistory the contract accepts: the newest years are kept. */
const HISTORY_MAX = (() => {
  const check = fastChecks.get(PropertyRecord.shape.ValueHistory);
  if (check?.k !== 'list') throw new Error('ValueHistory is not a list');
  return check.max;
})();

/**
 * Adds the carried years to the record's ValueHistory: a year the record's own history gives keeps the
 * record's line (an assessing system's history wins), the year of its own taxes is skipped, the rest is
 * added, newest first. The record is the
 * caller's freshly checked one and is changed in place: a copy of a record of 50 fields would no longer
 * have the shape the importer's compiled functions expect (measured: several times the cost).
 */
export function addCarriedHistory(record: PropertyRecord, carried: CarriedHistory | null): PropertyRecord {
  const text = carried?.get(record.Account);
  if (text === undefined) return record;
  const own = record.ValueHistory;
  // The year the record's own taxes are for is its current values, not history: re-publishing a
  // corrected roll of the same year replaces that year's values instead of listing them twice.
  let current: number | null = null;
  for (const t of record.Taxes) if (current === null || t.TaxYear > current) current = t.TaxYear;
  const lines = JSON.parse(text) as [number, number | null, number | null, number | null][];
  const merged: ValuationYear[] = own.slice();
  for (const [Year, LandValue, BuildingValue, TotalValue] of lines)
    if (Year !== current && !own.some((h) => h.Year === Year))
      merged.push({ Year, LandValue, BuildingValue, TotalValue });
  if (own.length) merged.sort((a, b) => b.Year - a.Year);
  record.ValueHistory = merged.length > HISTORY_MAX ? merged.slice(0, HISTORY_MAX) : merged;
  return record;
}
