import { lazy, Suspense } from 'react';
import type { PropertyParcelsProps } from './property-parcels';

/*
 * What the record page imports. Everything about parcels (the requests, the abutters panel, the map and
 * Leaflet) loads in chunks of its own once the page is shown: the page's initial JavaScript does not
 * grow. One file per page, so each page's chunk holds only its own loader.
 */
const PropertyParcels = lazy(() => import('./property-parcels'));

/** The record's map and abutters (for a town with a parcel map), or nothing when the record has no shape. */
export function PropertyParcelsSection(props: PropertyParcelsProps) {
  return (
    <Suspense fallback={null}>
      <PropertyParcels {...props} />
    </Suspense>
  );
}
