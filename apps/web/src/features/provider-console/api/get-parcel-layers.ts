import type { ParcelLayerHistory } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providerKeys } from './query-keys';

/** GET /api/parcel-layers/{clientId}: the town's live parcel layer and the layers loaded before. */
export const getParcelLayers = (clientId: number, signal?: AbortSignal) =>
  api<ParcelLayerHistory>('GET', `/api/parcel-layers/${clientId}`, { signal });

export const useParcelLayers = (clientId: number) =>
  useQuery(
    queryOptions({
      queryKey: providerKeys.parcelLayers(clientId),
      queryFn: ({ signal }) => getParcelLayers(clientId, signal),
      staleTime: 0,
    }),
  );
