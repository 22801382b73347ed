import type { PropertySummary } from '@opp/contracts';

/*
 * CSV for the export (RFC 4180: comma separated, CRLF line ends, fields quoted when they hold a comma,
 * quote or line break). Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is
 * prefixed with an apostrophe: an owner name must never become a command in someone's spreadsheet.
 */

type Cell = string | number | null;

export interface ExportColumn {
  header: string;
  value(s: PropertySummary): Cell;
}

const buildingLand = (s: PropertySummary) =>
  s.TotalBuildingValue == null && s.LandValue == null
    ? null
    : (s.TotalBuildingValue ?? 0) + (s.LandValue ?? 0);

/** The columns of the results list (spec §2), plus the two values Building + Land adds up. */
export const EXPORT_COLUMNS: ExportColumn[] = [
  { header: 'Account', value: (s) => s.Account },
  { header: 'Map/Lot', value: (s) => s.MapLot },
  { header: 'Owner 1', value: (s) => s.Owners[0]?.OwnerName ?? '' },
  { header: 'Owner 2', value: (s) => s.Owners[1]?.OwnerName ?? '' },
  { header: 'Street Number', value: (s) => s.StreetNumber },
  { header: 'Apartment', value: (s) => s.Apartment },
  { header: 'Street Name', value: (s) => s.StreetName },
  { header: 'Building Value', value: (s) => s.TotalBuildingValue },
  { header: 'Land Value', value: (s) => s.LandValue },
  { header: 'Building + Land', value: buildingLand },
  { header: 'Acres', value: (s) => s.TotalAcres },
  { header: 'Last Sale Date', value: (s) => s.SaleDate },
  { header: 'Last Sale Price', value: (s) => s.SalePrice },
];

export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: Cell[]) => `${cells.map(csvCell).join(',')}\r\n`;
