import { formatDate, formatMoney } from '@/utils/format';
import type { PropertyDetail } from '../api/get-property';

/** The latest tax effective date the record gives (Tax Details' "As Of"), or null. */
export function taxesAsOf(p: Pick<PropertyDetail, 'Taxes'>): string | null {
  return (
    p.Taxes.map((t) => t.EffectiveDate)
      .filter((d): d is string => !!d)
      .sort()
      .at(-1) ?? null
  );
}

/**
 * "Total due $1,234.56 as of 07/01/2024" for a record with tax outstanding; null when nothing is due (a
 * record with none says nothing about it). Dated by the taxes' effective date, else by the roll's.
 */
export function totalDue(
  p: Pick<PropertyDetail, 'TotalTaxOutstanding' | 'Taxes' | 'LastUpdated' | 'DateUpdated'>,
): { amount: string; asOf: string } | null {
  const owed = p.TotalTaxOutstanding;
  if (owed === null || !(owed > 0)) return null;
  return { amount: formatMoney(owed), asOf: formatDate(taxesAsOf(p) ?? p.LastUpdated ?? p.DateUpdated) };
}
