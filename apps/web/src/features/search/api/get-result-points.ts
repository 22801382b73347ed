import type { ResultPoints } from '@opp/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { SearchState } from '../utils/search-state';
import { wholeResultQuery } from './export-csv';

/**
 * GET /api/propertysearch/{clientId}/points: where every result of the search is, for the results map
 * (asked only while the map is shown). The order does not matter to a map, so a new sort asks nothing.
 */
export function useResultPoints(clientId: number, s: SearchState, enabled: boolean) {
  const query = wholeResultQuery(s, { sort: false }).toString();
  return useQuery({
    queryKey: ['result-points', clientId, query],
    queryFn: ({ signal }) =>
      api<ResultPoints>('GET', `/api/propertysearch/${clientId}/points?${query}`, { signal }),
    enabled,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}
