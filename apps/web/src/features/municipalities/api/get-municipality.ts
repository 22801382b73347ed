import type { ClientLookup, PublicClient } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/client/{state}/{city}: the municipality's id (spec §7). */
export const lookupClient = (state: string, city: string, signal?: AbortSignal) =>
  api<ClientLookup>('GET', `/api/client/${encodeURIComponent(state)}/${encodeURIComponent(city)}`, {
    signal,
  });

/** GET /api/client/{id}: banner, payment link settings, name. */
export const getClient = (clientId: number, signal?: AbortSignal) =>
  api<PublicClient>('GET', `/api/client/${clientId}`, { signal });

/**
 * The municipality behind a /{state}/{city} URL: the lookup, then the record. A lookup without a
 * ClientID is a failure like a 404 (spec §8 "returns no ClientID or fails").
 */
export async function getMunicipality(
  state: string,
  city: string,
  signal?: AbortSignal,
): Promise<PublicClient> {
  const found = await lookupClient(state, city, signal);
  if (!found || typeof found.ClientID !== 'number') throw new Error('Unable to find municipality');
  return getClient(found.ClientID, signal);
}

export const getMunicipalityQueryOptions = (state: string, city: string) =>
  queryOptions({
    queryKey: ['municipality', state.toLowerCase(), city.toLowerCase()],
    queryFn: ({ signal }) => getMunicipality(state, city, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });

export const useMunicipality = (state: string, city: string) =>
  useQuery(getMunicipalityQueryOptions(state, city));
