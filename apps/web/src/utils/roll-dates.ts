import type { RollDates } from '@opp/contracts';
import { formatDate } from './format';

/**
 * What a town's data dates from, in the one wording every page and printout uses (issue 48): the date
 * and fiscal year of the values where the roll gives them, then the day the town published it —
 * "Values as of 01/01/2013, fiscal year 2014 · published on this site 03/14/2025". A roll without
 * either says only "Published on this site 03/14/2025": the day it was published is not the date of
 * its values. '' when nothing is known.
 */
export function rollDatesText(d: Partial<RollDates> | null | undefined): string {
  if (!d) return '';
  const published = formatDate(d.LastUpdated);
  const asOf = formatDate(d.ValuationDate);
  const year = d.TaxYear ? `fiscal year ${d.TaxYear}` : '';
  const values = asOf ? `Values as of ${asOf}${year ? `, ${year}` : ''}` : year ? `Values for ${year}` : '';
  if (!values) return published ? `Published on this site ${published}` : '';
  return published ? `${values} · published on this site ${published}` : values;
}
