import type { Suggestion } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/suggest/{clientId}?q=: owners, addresses and map/lots starting with what was typed. */
export async function getSuggestions(
  clientId: number,
  q: string,
  signal?: AbortSignal,
): Promise<Suggestion[]> {
  const res = await api<{ suggestions: Suggestion[] }>('GET', `/api/suggest/${clientId}`, {
    query: { q },
    signal,
  });
  return res.suggestions;
}

export const MIN_SUGGEST_CHARS = 2;

export const getSuggestionsQueryOptions = (clientId: number, q: string) =>
  queryOptions({
    queryKey: ['suggest', clientId, q.toLowerCase()],
    queryFn: ({ signal }) => getSuggestions(clientId, q, signal),
    staleTime: 60_000,
    retry: false,
  });

export const useSuggestions = (clientId: number, q: string) =>
  useQuery({ ...getSuggestionsQueryOptions(clientId, q), enabled: q.trim().length >= MIN_SUGGEST_CHARS });
