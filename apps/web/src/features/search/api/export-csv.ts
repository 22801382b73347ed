import { toApiFilters, type SearchState } from '../utils/search-state';

/**
 * GET /api/propertysearch/{clientId}/export.csv: the whole current result set as CSV. A plain link (the
 * browser downloads it), so the search travels in the query string: `query`, and `filters` and `sort`
 * as JSON.
 */
export function exportCsvUrl(clientId: number, s: SearchState): string {
  const p = new URLSearchParams();
  if (s.query.trim()) p.set('query', s.query.trim());
  const filters = toApiFilters(s.filters);
  if (filters) p.set('filters', JSON.stringify(filters));
  p.set('sort', JSON.stringify({ sortby: s.sort.sortby, descending: s.sort.descending }));
  return `/api/propertysearch/${clientId}/export.csv?${p.toString()}`;
}
