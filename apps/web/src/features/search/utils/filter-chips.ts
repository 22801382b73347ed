import { formatCount, formatDate, formatMoney, formatNumber } from '@/utils/format';
import { readNumber } from './filter-input';
import type { FilterForm } from './search-state';

/** One active filter as the results show it: a removable chip. */
export interface FilterChip {
  id: string;
  label: string;
  /** The filters without this one. */
  without: (f: FilterForm) => FilterForm;
}

type Scalar = {
  [K in keyof FilterForm]: FilterForm[K] extends string ? K : never;
}[keyof FilterForm];

/** How a typed number reads on a chip: as typed when it cannot be read (the server will say why). */
const shown = (text: string, format: (n: number) => string) => {
  const n = readNumber(text);
  return typeof n === 'number' ? format(n) : text.trim();
};
const count = (n: number) => (Number.isInteger(n) ? formatCount(n) : formatNumber(n));

/** The scalar filters in the Advanced Search's order, each with its chip text. */
const SCALARS: [Scalar, (v: string) => string][] = [
  ['salePriceMin', (v) => `Sale price from ${shown(v, formatMoney)}`],
  ['salePriceMax', (v) => `Sale price to ${shown(v, formatMoney)}`],
  ['saleDateFrom', (v) => `Sold on or after ${formatDate(v) || v}`],
  ['saleDateTo', (v) => `Sold on or before ${formatDate(v) || v}`],
  ['landAreaMin', (v) => `Land from ${shown(v, count)} acres`],
  ['landAreaMax', (v) => `Land to ${shown(v, count)} acres`],
  ['buildingAreaMin', (v) => `Building from ${shown(v, count)} sq ft`],
  ['buildingAreaMax', (v) => `Building to ${shown(v, count)} sq ft`],
  ['bedrooms', (v) => `At least ${shown(v, count)} bedrooms`],
  ['bathrooms', (v) => `At least ${shown(v, count)} bathrooms`],
  // Years read as typed: 1950, not 1,950.
  ['yearBuiltMin', (v) => `Built in or after ${v}`],
  ['yearBuiltMax', (v) => `Built in or before ${v}`],
];

const LISTS: ['landTypes' | 'buildingStyles' | 'ownership', (v: string) => string][] = [
  ['landTypes', (v) => `Land type: ${v}`],
  ['buildingStyles', (v) => `Style: ${v}`],
  ['ownership', (v) => (v === 'commercial' ? 'Commercial' : 'Residential')],
];

/** Every filter that is set, in the form's order. */
export function filterChips(f: FilterForm): FilterChip[] {
  const chips: FilterChip[] = [];
  for (const [key, label] of SCALARS) {
    const v = String(f[key]).trim();
    if (v) chips.push({ id: key, label: label(v), without: (g) => ({ ...g, [key]: '' }) });
  }
  for (const [key, label] of LISTS)
    for (const v of f[key] as string[])
      chips.push({
        id: `${key}:${v}`,
        label: label(v),
        without: (g) => ({ ...g, [key]: (g[key] as string[]).filter((x) => x !== v) }),
      });
  return chips;
}
