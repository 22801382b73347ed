import { lazy, Suspense } from 'react';
import type { ComparablesPanelProps } from './comparables-panel';

/*
 * What the record page imports: the panel, its requests and its map load in chunks of their own once
 * the page is shown (the map's Leaflet chunk is the one the parcel map loads), so the page's initial
 * JavaScript does not grow.
 */
const ComparablesPanel = lazy(() => import('./comparables-panel'));

/** Comparable sales of the record (for a town with a parcel map), or nothing when it has no shape. */
export function ComparablesSection(props: ComparablesPanelProps) {
  return (
    <Suspense fallback={null}>
      <ComparablesPanel {...props} />
    </Suspense>
  );
}
