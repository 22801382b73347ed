import type { LandBuildingOptions } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/landbuilding/{clientId}: the land type and building style checkboxes. */
export const getLandBuilding = (clientId: number, signal?: AbortSignal) =>
  api<LandBuildingOptions>('GET', `/api/landbuilding/${clientId}`, { signal });

export const getLandBuildingQueryOptions = (clientId: number) =>
  queryOptions({
    queryKey: ['landbuilding', clientId],
    queryFn: ({ signal }) => getLandBuilding(clientId, signal),
    staleTime: 5 * 60_000,
  });

export const useLandBuilding = (clientId: number, enabled: boolean) =>
  useQuery({ ...getLandBuildingQueryOptions(clientId), enabled });
