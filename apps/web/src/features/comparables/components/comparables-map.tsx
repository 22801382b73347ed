import type { Comparable, ParcelFeature } from '@opp/contracts';
import { lazy } from 'react';
import { MapFrame } from '@/features/parcels/components/parcel-map';

// Leaflet comes in the chunk the parcel map already uses, loaded with the first map scrolled near.
const ComparablesMapView = lazy(() => import('./comparables-map-view'));

export interface ComparablesMapProps {
  subject: ParcelFeature;
  comparables: Comparable[];
  hrefFor: (account: string) => string;
}

/**
 * Where the comparables are relative to the subject: an enhancement beside the table, which lists every
 * one of them; the description says so.
 */
export function ComparablesMap(props: ComparablesMapProps) {
  return (
    <MapFrame
      className="opp-comparables__map"
      description="This parcel is filled in red; each comparable sale is a numbered circle, its number its rank in the table, which lists every comparable as text. Select a circle to open its record."
      view={(frame) => <ComparablesMapView {...props} {...frame} />}
    />
  );
}
