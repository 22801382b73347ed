import type { PublicClient } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providerKeys } from './query-keys';

/** GET /api/clients: every client, inactive ones included. */
export const getClients = (signal?: AbortSignal) => api<PublicClient[]>('GET', '/api/clients', { signal });

export const getClientsQueryOptions = () =>
  queryOptions({
    queryKey: providerKeys.clients(),
    queryFn: ({ signal }) => getClients(signal),
    staleTime: 0,
  });

export const useClients = () => useQuery(getClientsQueryOptions());
