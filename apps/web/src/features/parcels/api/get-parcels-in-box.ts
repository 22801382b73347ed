import type { ParcelCollection } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Box } from '../utils/geometry';

/** GET /api/parcels/{clientId}?bbox=minLon,minLat,maxLon,maxLat: the parcels in a map box. */
export const getParcelsInBox = (clientId: number, box: Box, signal?: AbortSignal) =>
  api<ParcelCollection>('GET', `/api/parcels/${clientId}`, { query: { bbox: box.join(',') }, signal });

export const getParcelsInBoxQueryOptions = (clientId: number, box: Box) =>
  queryOptions({
    queryKey: ['parcels-in-box', clientId, ...box],
    queryFn: ({ signal }) => getParcelsInBox(clientId, box, signal),
    staleTime: 5 * 60_000,
    retry: false,
    // The answer for the last distance or box stays on screen while the next one comes (react-query's
    // keepPreviousData, written out: importing it would put it in every page's framework chunk).
    placeholderData: <T>(previous: T) => previous,
  });

export const useParcelsInBox = (clientId: number, box: Box | null) =>
  useQuery({
    ...getParcelsInBoxQueryOptions(clientId, box ?? [0, 0, 0, 0]),
    enabled: box !== null,
  });
