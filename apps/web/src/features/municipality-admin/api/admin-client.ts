import type { ClientLookup, PublicClient, UpdateClientBody } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const adminClientKey = (state: string, city: string) =>
  ['admin-client', state.toLowerCase(), city.toLowerCase()] as const;

/**
 * The municipality behind /{state}/{city}/admin: GET /api/client/{state}/{city} (an old name of a
 * renamed town still finds it), then GET /api/client/{id}.
 */
export async function getAdminClient(
  state: string,
  city: string,
  signal?: AbortSignal,
): Promise<PublicClient> {
  const found = await api<ClientLookup>(
    'GET',
    `/api/client/${encodeURIComponent(state)}/${encodeURIComponent(city)}`,
    { signal },
  );
  if (!found || typeof found.ClientID !== 'number') throw new Error('Unable to find municipality');
  return api<PublicClient>('GET', `/api/client/${found.ClientID}`, {
    signal,
    query: { showinactive: 'true' },
  });
}

export const useAdminClient = (state: string, city: string) =>
  useQuery(
    queryOptions({
      queryKey: adminClientKey(state, city),
      queryFn: ({ signal }) => getAdminClient(state, city, signal),
      retry: false,
      staleTime: 0,
    }),
  );

/** PATCH /api/client/{clientId}. */
export const updateClient = (clientId: number, body: UpdateClientBody) =>
  api<PublicClient>('PATCH', `/api/client/${clientId}`, { body });
