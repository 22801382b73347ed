import type { ResultPoints } from '@opp/contracts';
import { formatCount, formatCountOf } from '@/utils/format';
import { MapFrame } from './parcel-map';
import ResultsClusterView from './results-cluster-view';

export interface ResultsMapProps {
  /** Where every result of the search is (null while the first answer loads). */
  points: ResultPoints | null;
  /** The points could not be read: the list below still holds the results. */
  failed: boolean;
  hrefFor: (account: string) => string;
}

/** The map's words: what it shows of the results, and where the rest are. */
function describe({ Points, TotalRecords, RecordsRead }: ResultPoints): string {
  const placed = new Set(Points.map((p) => p[0])).size;
  const missing = RecordsRead - placed;
  return [
    RecordsRead < TotalRecords
      ? `The map places the first ${formatCount(RecordsRead)} of ${formatCount(TotalRecords)} results; narrow the search to see them all.`
      : TotalRecords === 1
        ? 'The one result of this search.'
        : `All ${formatCount(TotalRecords)} results of this search, not only this page's.`,
    'Results close together are grouped: a group’s number says how many it holds (select it to zoom in); select a single result to open its record.',
    missing > 0
      ? `${formatCountOf(missing, 'result')} ${missing === 1 ? 'has' : 'have'} no parcel on the town's map.`
      : '',
    'The list below holds the same results, a page at a time.',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The Map view of the results (issue 48): every result of the search, not only the page shown,
 * grouped where they crowd together at city scale and shown one by one closer in. The list stays below
 * it, the accessible way to the same records.
 */
export default function ResultsMap({ points, failed, hrefFor }: ResultsMapProps) {
  if (failed && !points)
    return (
      <p className="opp-empty">The map of these results could not be loaded. The list below shows them.</p>
    );
  if (points && points.TotalRecords === 0) return <p className="opp-empty">No results to show on a map.</p>;
  if (points && points.Points.length === 0)
    return (
      <p className="opp-empty">This town has no parcel map for these results. The list below shows them.</p>
    );
  return (
    <MapFrame
      description={points ? describe(points) : 'Loading where the results are…'}
      view={({ tilesUrl, describedBy }) => (
        <ResultsClusterView
          points={points?.Points ?? []}
          hrefFor={hrefFor}
          tilesUrl={tilesUrl}
          label="Map of all the results"
          describedBy={describedBy}
        />
      )}
    />
  );
}
