import { toApiFilters, type SearchState } from '../utils/search-state';

/**
 * A search as the routes that answer its whole result take it in the query string (the CSV export, the
 * results map's points): `query`, and `filters` and `sort` as JSON. `sort: false` leaves the order to
 * the server, for an answer whose order does not matter.
 */
export function wholeResultQuery(s: SearchState, { sort = true } = {}): URLSearchParams {
  const p = new URLSearchParams();
  if (s.query.trim()) p.set('query', s.query.trim());
  const filters = toApiFilters(s.filters);
  if (filters) p.set('filters', JSON.stringify(filters));
  if (sort) p.set('sort', JSON.stringify({ sortby: s.sort.sortby, descending: s.sort.descending }));
  return p;
}

/**
 * GET /api/propertysearch/{clientId}/export.csv: the whole current result set as CSV. A plain link (the
 * browser downloads it), so the search travels in the query string.
 */
export function exportCsvUrl(clientId: number, s: SearchState): string {
  return `/api/propertysearch/${clientId}/export.csv?${wholeResultQuery(s).toString()}`;
}
