import { ArrowDownIcon, ArrowUpIcon, UnfoldIcon } from '@/components/ui/icons';
import type { SortColumn } from '@opp/contracts';
import type { SortState } from '../utils/search-state';

/** Spec §2: every sortable column shows an up/down indicator; the active one shows its direction. */
export function SortIndicator({ column, sort }: { column: SortColumn; sort: SortState }) {
  if (sort.sortby !== column) return <UnfoldIcon size={18} className="opp-icon opp-sort-icon--off" />;
  return sort.descending ? <ArrowDownIcon size={20} /> : <ArrowUpIcon size={20} />;
}

export function sortDescription(sort: SortState, label: string): string {
  return `Sorted by ${label}, ${sort.descending ? 'descending' : 'ascending'}`;
}
