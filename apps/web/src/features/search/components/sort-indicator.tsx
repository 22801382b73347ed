import { ArrowDownIcon, ArrowUpIcon, UnfoldIcon } from '@/components/ui/icons';
import type { SortColumn } from '@opp/contracts';
import { SORT_CHOICES, type SortState } from '../utils/search-state';

/** Spec §2: every sortable column shows an up/down indicator; the active one shows its direction. */
export function SortIndicator({ column, sort }: { column: SortColumn; sort: SortState }) {
  if (sort.sortby !== column) return <UnfoldIcon size={18} className="opp-icon opp-sort-icon--off" />;
  return sort.descending ? <ArrowDownIcon size={20} /> : <ArrowUpIcon size={20} />;
}

/** "Sorted by Year Built, ascending": the sort's label as the sort menu words it, never its field name. */
export function sortDescription(sort: SortState): string {
  const label = SORT_CHOICES.find((o) => o.column === sort.sortby)?.label ?? 'Name';
  return `Sorted by ${label}, ${sort.descending ? 'descending' : 'ascending'}`;
}
