import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/states: the regions that have a published municipality. */
export const getStates = (signal?: AbortSignal) => api<string[]>('GET', '/api/states', { signal });

export const getStatesQueryOptions = () =>
  queryOptions({ queryKey: ['states'], queryFn: ({ signal }) => getStates(signal), staleTime: 5 * 60_000 });

export const useStates = () => useQuery(getStatesQueryOptions());
