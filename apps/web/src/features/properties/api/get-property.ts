import type { PropertyRecord } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The full §3 record as GET /api/fullproperty returns it, plus when the roll was published. */
export type PropertyDetail = PropertyRecord & { LastUpdated: string | null };

/** GET /api/fullproperty/{account}?city=&state= (spec §7). */
export const getProperty = (account: string, state: string, city: string, signal?: AbortSignal) =>
  api<PropertyDetail>('GET', `/api/fullproperty/${encodeURIComponent(account)}`, {
    query: { city, state },
    signal,
  });

export const getPropertyQueryOptions = (account: string, state: string, city: string) =>
  queryOptions({
    queryKey: ['fullproperty', state.toLowerCase(), city.toLowerCase(), account],
    queryFn: ({ signal }) => getProperty(account, state, city, signal),
    staleTime: 60_000,
    retry: false,
  });

export const useProperty = (account: string, state: string, city: string, enabled: boolean) =>
  useQuery({ ...getPropertyQueryOptions(account, state, city), enabled });
