import type { ParcelFeature } from '@opp/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getParcelQueryOptions } from '../api/get-parcel';
import { ParcelMap } from './parcel-map';

export interface ResultsMapProps {
  clientId: number;
  /** The accounts of the results shown (the current page). */
  accounts: string[];
  hrefFor: (account: string) => string;
}

/**
 * The Map view of the results: the parcels of the page of results shown, each opening its record. The
 * results list stays below it, the accessible way to the same records. Shapes are fetched per record
 * (the ones the property pages use and cache); records without a shape are simply not drawn.
 */
export default function ResultsMap({ clientId, accounts, hrefFor }: ResultsMapProps) {
  const queryClient = useQueryClient();
  // One query for the page's shapes, each fetched (and cached) as the property page asks for it.
  // Not useQueries: it would add its code to every public page's framework chunk.
  const shapes = useQuery({
    queryKey: ['parcels-of', clientId, ...accounts],
    queryFn: () =>
      Promise.all(
        accounts.map((account) =>
          queryClient.fetchQuery(getParcelQueryOptions(clientId, account)).catch(() => null),
        ),
      ),
    staleTime: 5 * 60_000,
  });
  const features = useMemo(
    () => (shapes.data ?? []).filter((f): f is ParcelFeature => f !== null),
    [shapes.data],
  );
  const parcels = { features, pending: shapes.isPending };
  const missing = accounts.length - parcels.features.length;
  if (!parcels.pending && parcels.features.length === 0)
    return (
      <p className="opp-empty">
        {accounts.length === 0
          ? 'No results to show on a map.'
          : 'This town has no parcel map for these results. The list below shows them.'}
      </p>
    );
  return (
    <ParcelMap
      features={parcels.features}
      hrefFor={hrefFor}
      label="Map of the results on this page"
      description={
        `Each result on this page with a parcel on the town's map is outlined; select one to open its record.` +
        (!parcels.pending && missing > 0
          ? ` ${missing} ${missing === 1 ? 'result has' : 'results have'} no parcel on the map.`
          : '') +
        ' The list below holds the same results.'
      }
    />
  );
}
