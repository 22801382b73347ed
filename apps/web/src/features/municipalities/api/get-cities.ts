import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const collator = new Intl.Collator('en-US', { sensitivity: 'base', numeric: true });

/** GET /api/{state}/cities, sorted alphabetically here as spec §2 asks ("sorted on the client"). */
export async function getCities(state: string, signal?: AbortSignal): Promise<string[]> {
  const cities = await api<string[]>('GET', `/api/${encodeURIComponent(state)}/cities`, { signal });
  return [...cities].sort(collator.compare);
}

export const getCitiesQueryOptions = (state: string) =>
  queryOptions({
    queryKey: ['cities', state],
    queryFn: ({ signal }) => getCities(state, signal),
    staleTime: 5 * 60_000,
  });

export const useCities = (state: string) =>
  useQuery({ ...getCitiesQueryOptions(state), enabled: state !== '' });
