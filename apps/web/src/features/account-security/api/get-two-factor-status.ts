import type { TwoFactorStatus } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { twoFactorKeys } from './query-keys';

/** GET /api/two-factor: on or off, recovery codes left, and whether the provider requires it. */
export const getTwoFactorStatus = (signal?: AbortSignal) =>
  api<TwoFactorStatus>('GET', '/api/two-factor', { signal });

export const twoFactorStatusQuery = (userId: number) =>
  queryOptions({
    queryKey: twoFactorKeys.status(userId),
    queryFn: ({ signal }) => getTwoFactorStatus(signal),
    // Asked again on every visit: a sign-in with a recovery code elsewhere changes the count.
    staleTime: 0,
  });

export const useTwoFactorStatus = (userId: number, enabled = true) =>
  useQuery({ ...twoFactorStatusQuery(userId), enabled });
