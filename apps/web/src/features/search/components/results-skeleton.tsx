/** Spec §2/§4: three skeleton cards while the first search is pending. */
export function ResultsSkeleton() {
  return (
    <div className="opp-skeletons" aria-hidden="true" data-testid="results-skeleton">
      {[0, 1, 2].map((i) => (
        <div key={i} className="opp-skeleton-card">
          <div className="opp-skeleton opp-skeleton--img" />
          <div className="opp-skeleton-card__lines">
            <div className="opp-skeleton opp-skeleton--line" />
            <div className="opp-skeleton opp-skeleton--line opp-skeleton--short" />
            <div className="opp-skeleton opp-skeleton--line" />
          </div>
        </div>
      ))}
    </div>
  );
}
