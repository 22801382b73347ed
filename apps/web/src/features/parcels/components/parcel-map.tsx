import type { ParcelFeature } from '@opp/contracts';
import type { ParcelMapViewProps } from './parcel-map-view';
import { lazy, Suspense, useId, useRef, type ReactNode } from 'react';
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

/** What a lazily loaded map view is drawn with. */
export interface MapViewFrame {
  tilesUrl: string;
  /** The id of the map's description, for aria-describedby. */
  describedBy: string;
}

/**
 * The frame every map sits in: its canvas, its description in words, and the map view itself, loaded
 * (with Leaflet) only once the frame is scrolled near: a phone that never scrolls to a map at the foot of
 * a page never pays for it.
 */
export function MapFrame({
  className,
  description,
  view,
}: {
  className?: string;
  description: ReactNode;
  view: (frame: MapViewFrame) => ReactNode;
}) {
  const describedBy = useId();
  const tilesUrl = usePublicConfig().data?.mapTilesUrl ?? '';
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box);
  const canvas = <div className="opp-parcel-map__canvas" />;
  return (
    <div className={className ? `opp-parcel-map ${className}` : 'opp-parcel-map'} ref={box}>
      {near ? <Suspense fallback={canvas}>{view({ tilesUrl, describedBy })}</Suspense> : canvas}
      <p id={describedBy} className="opp-parcel-map__note">
        {description}
      </p>
    </div>
  );
}

/**
 * A map of parcels: an enhancement beside a list that holds the same records. Its name and description
 * tell a screen reader what it is and where the list is; keyboard users can pan and zoom it, and every
 * record it links to is also a link in that list.
 */
export function ParcelMap({ description, ...props }: ParcelMapProps) {
  return <MapFrame description={description} view={(frame) => <ParcelMapView {...props} {...frame} />} />;
}
