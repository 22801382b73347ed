import type { Comparable, ComparablesResponse } from '@opp/contracts';
import { csvRow, type CsvCell } from '../../lib/csv.ts';

/** The comparables list as CSV: one sale a row, in the list's order (lib/csv.ts keeps it formula-safe). */
const CSV_COLUMNS: { header: string; value: (c: Comparable, rank: number) => CsvCell }[] = [
  { header: 'Rank', value: (_c, rank) => rank },
  { header: 'Score', value: (c) => c.Score },
  { header: 'Account', value: (c) => c.Account },
  { header: 'Map/Lot', value: (c) => c.MapLot },
  { header: 'Location', value: (c) => c.Location },
  { header: 'Sale date', value: (c) => c.SaleDate },
  { header: 'Sale price', value: (c) => c.SalePrice },
  { header: 'Price per sq ft', value: (c) => c.PricePerSqFt },
  { header: 'Living area (sq ft)', value: (c) => c.LivingArea },
  { header: 'Year built', value: (c) => c.YearBuilt },
  { header: 'Distance (mi)', value: (c) => c.DistanceMiles },
  { header: 'Book', value: (c) => c.Book },
  { header: 'Page', value: (c) => c.Page },
  { header: 'Sale type', value: (c) => c.SaleType },
  { header: "Arm's length", value: (c) => (c.ArmsLength ? 'Yes' : 'No') },
  { header: 'Sale party', value: (c) => c.SaleParty },
];

/** UTF-8 with a byte-order mark (so spreadsheets read accents) and a header row. */
export function comparablesCsv(list: ComparablesResponse): string {
  let out = '\uFEFF' + csvRow(CSV_COLUMNS.map((c) => c.header));
  list.Comparables.forEach((comparable, i) => {
    out += csvRow(CSV_COLUMNS.map((c) => c.value(comparable, i + 1)));
  });
  return out;
}
