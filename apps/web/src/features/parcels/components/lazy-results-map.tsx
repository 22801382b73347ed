import { lazy, Suspense } from 'react';
import type { ResultsMapProps } from './results-map';

/* What the results page imports: the Map view's code (and Leaflet) loads only when it is chosen. */
const ResultsMap = lazy(() => import('./results-map'));

/** The results page's Map view. Holds the map's place while its code loads. */
export function ResultsMapView(props: ResultsMapProps) {
  return (
    <Suspense fallback={<div style={{ height: '22rem' }} />}>
      <ResultsMap {...props} />
    </Suspense>
  );
}
