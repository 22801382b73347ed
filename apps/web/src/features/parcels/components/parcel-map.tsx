import type { ParcelFeature } from '@opp/contracts';
import type { ParcelMapViewProps } from './parcel-map-view';
import { lazy, Suspense, useId, useRef } from 'react';
import { usePublicConfig } from '@/features/auth/api/get-public-config';
import { useNearViewport } from '@/hooks/use-near-viewport';

// Leaflet and its stylesheet load with the first map scrolled near, never with a page's own code.
const ParcelMapView = lazy(() => import('./parcel-map-view'));

export interface ParcelMapProps {
  features: ParcelFeature[];
  subject?: ParcelFeature;
  highlight?: ParcelMapViewProps['highlight'];
  zone?: ParcelMapViewProps['zone'];
  hrefFor: (account: string) => string;
  /** The map's accessible name. */
  label: string;
  /** What the map shows, in words, and where the same information is as text. */
  description: string;
}

/**
 * A map of parcels: an enhancement beside a list that holds the same records. Its name and description
 * tell a screen reader what it is and where the list is; keyboard users can pan and zoom it, and every
 * record it links to is also a link in that list.
 */
export function ParcelMap({ description, ...props }: ParcelMapProps) {
  const descriptionId = useId();
  const tilesUrl = usePublicConfig().data?.mapTilesUrl ?? '';
  const box = useRef<HTMLDivElement>(null);
  // A record's map is at the foot of its page: a phone that never scrolls there never pays for it.
  const near = useNearViewport(box);
  const canvas = <div className="opp-parcel-map__canvas" />;
  return (
    <div className="opp-parcel-map" ref={box}>
      {near ? (
        <Suspense fallback={canvas}>
          <ParcelMapView {...props} tilesUrl={tilesUrl} describedBy={descriptionId} />
        </Suspense>
      ) : (
        canvas
      )}
      <p id={descriptionId} className="opp-parcel-map__note">
        {description}
      </p>
    </div>
  );
}
