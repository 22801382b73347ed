import type { ParcelFeature } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/parcels/{clientId}/{account}: the parcel's shape; 404 when the town has no map or no shape. */
export const getParcel = (clientId: number, account: string, signal?: AbortSignal) =>
  api<ParcelFeature>('GET', `/api/parcels/${clientId}/${encodeURIComponent(account)}`, { signal });

export const getParcelQueryOptions = (clientId: number, account: string) =>
  queryOptions({
    queryKey: ['parcel', clientId, account],
    queryFn: ({ signal }) => getParcel(clientId, account, signal),
    staleTime: 5 * 60_000,
    // A 404 is the usual answer of a town without a parcel map: nothing to retry.
    retry: false,
  });

export const useParcel = (clientId: number, account: string) =>
  useQuery(getParcelQueryOptions(clientId, account));
