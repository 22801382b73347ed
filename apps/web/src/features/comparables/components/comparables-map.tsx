import type { Comparable, ParcelFeature } from '@opp/contracts';
import { lazy, Suspense, useId, useRef } from 'react';
import { usePublicConfig } from '@/features/auth/api/get-public-config';
import { useNearViewport } from '@/hooks/use-near-viewport';

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
  const descriptionId = useId();
  const tilesUrl = usePublicConfig().data?.mapTilesUrl ?? '';
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box);
  const canvas = <div className="opp-parcel-map__canvas" />;
  return (
    <div className="opp-parcel-map opp-comparables__map" ref={box}>
      {near ? (
        <Suspense fallback={canvas}>
          <ComparablesMapView {...props} tilesUrl={tilesUrl} describedBy={descriptionId} />
        </Suspense>
      ) : (
        canvas
      )}
      <p id={descriptionId} className="opp-parcel-map__note">
        This parcel is filled in red; each comparable sale is a numbered circle, its number its rank in the
        table, which lists every comparable as text. Select a circle to open its record.
      </p>
    </div>
  );
}
