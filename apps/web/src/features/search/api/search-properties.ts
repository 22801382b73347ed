import type { SearchResponse } from '@opp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { PAGE_SIZE, toSearchBody, type SearchState } from '../utils/search-state';

/** POST /api/propertysearch/{clientId}?query=&page=&pagesize= with the filters and sort in the body. */
export function searchProperties(clientId: number, s: SearchState, signal?: AbortSignal) {
  return api<SearchResponse>('POST', `/api/propertysearch/${clientId}`, {
    query: { query: s.query.trim() || undefined, page: s.page, pagesize: PAGE_SIZE },
    body: toSearchBody(s),
    signal,
  });
}

export const searchPropertiesQueryOptions = (clientId: number, s: SearchState) =>
  queryOptions({
    queryKey: ['propertysearch', clientId, s.query.trim(), s.page, toSearchBody(s)],
    queryFn: ({ signal }) => searchProperties(clientId, s, signal),
    staleTime: 30_000,
  });

/** The previous page stays on screen while the next one loads; only the first load shows skeletons. */
export const useSearchProperties = (clientId: number | undefined, s: SearchState) =>
  useQuery({
    ...searchPropertiesQueryOptions(clientId ?? 0, s),
    enabled: clientId !== undefined,
    placeholderData: keepPreviousData,
  });
