import type { PublicConfig } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/config: the provider's name for the provider login heading. */
export const getPublicConfig = (signal?: AbortSignal) => api<PublicConfig>('GET', '/api/config', { signal });

export const usePublicConfig = () =>
  useQuery(
    queryOptions({
      queryKey: ['public-config'],
      queryFn: ({ signal }) => getPublicConfig(signal),
      staleTime: Infinity,
    }),
  );
