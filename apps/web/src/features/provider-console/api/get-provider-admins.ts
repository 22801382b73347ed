import type { User } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providerKeys } from './query-keys';

/** GET /api/users/role/1: the provider's administrators. */
export const getProviderAdmins = (signal?: AbortSignal) =>
  api<User[]>('GET', '/api/users/role/1', { signal });

export const useProviderAdmins = () =>
  useQuery(
    queryOptions({ queryKey: providerKeys.admins(), queryFn: ({ signal }) => getProviderAdmins(signal) }),
  );
