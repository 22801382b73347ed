import type { RollFormatDto } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providerKeys } from './query-keys';

/** GET /api/roll-formats: the built-in source formats (they change only with the portal's version). */
export const getRollFormats = (signal?: AbortSignal) =>
  api<RollFormatDto[]>('GET', '/api/roll-formats', { signal });

export const useRollFormats = () =>
  useQuery(
    queryOptions({
      queryKey: providerKeys.rollFormats(),
      queryFn: ({ signal }) => getRollFormats(signal),
      staleTime: Infinity,
    }),
  );
