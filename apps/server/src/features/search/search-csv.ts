import type { SearchResult } from '@opp/contracts';
import type { CsvCell } from '../../lib/csv.ts';

/*
 * The export's columns. Rows are written by lib/csv.ts (every text cell quoted, formulas neutralised):
 * an owner name must never become a command in someone's spreadsheet.
 */

type Cell = CsvCell;

export interface ExportColumn {
  header: string;
  value(s: SearchResult): Cell;
}

const buildingLand = (s: SearchResult) =>
  s.TotalBuildingValue == null && s.LandValue == null
    ? null
    : (s.TotalBuildingValue ?? 0) + (s.LandValue ?? 0);

/**
 * The columns of the results list (spec §2), plus the two values Building + Land adds up, then what the
 * list shows for comparing parcels (issue 48). Year Built and Style are always here, empty where the
 * roll has none, so a file's columns do not depend on the town.
 */
export const EXPORT_COLUMNS: ExportColumn[] = [
  { header: 'Account', value: (s) => s.Account },
  { header: 'Map/Lot', value: (s) => s.MapLot },
  { header: 'Owner 1', value: (s) => s.Owners[0]?.OwnerName ?? '' },
  { header: 'Owner 2', value: (s) => s.Owners[1]?.OwnerName ?? '' },
  // A record may list many owners; the export carries every one (issue 38), the rest in one cell.
  {
    header: 'Other Owners',
    value: (s) =>
      s.Owners.slice(2)
        .map((o) => o.OwnerName)
        .join('; '),
  },
  { header: 'Street Number', value: (s) => s.StreetNumber },
  { header: 'Apartment', value: (s) => s.Apartment },
  { header: 'Street Name', value: (s) => s.StreetName },
  { header: 'Building Value', value: (s) => s.TotalBuildingValue },
  { header: 'Land Value', value: (s) => s.LandValue },
  { header: 'Building + Land', value: buildingLand },
  { header: 'Acres', value: (s) => s.TotalAcres },
  { header: 'Last Sale Date', value: (s) => s.SaleDate },
  { header: 'Last Sale Price', value: (s) => s.SalePrice },
  { header: 'Year Built', value: (s) => s.YearBuilt },
  // A parcel with several residences of different styles lists each once, as Other Owners does.
  { header: 'Style', value: (s) => s.BuildingStyles.join('; ') },
];
