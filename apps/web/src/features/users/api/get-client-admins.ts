import type { User } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usersKeys } from './query-keys';

/** GET /api/users/{clientId}: the municipality's admins (403 for a Site Administrator). */
export const getClientAdmins = (clientId: number, signal?: AbortSignal) =>
  api<User[]>('GET', `/api/users/${clientId}`, { signal });

export const useClientAdmins = (clientId: number, enabled: boolean) =>
  useQuery(
    queryOptions({
      queryKey: usersKeys.byClient(clientId),
      queryFn: ({ signal }) => getClientAdmins(clientId, signal),
      enabled,
      retry: false,
    }),
  );
