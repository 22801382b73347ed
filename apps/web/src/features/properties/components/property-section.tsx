import type { ReactNode } from 'react';

export interface PropertySectionProps {
  id: string;
  title: string;
  /** Spec §2: an empty section shows a 'No Data' overlay. */
  empty: boolean;
  children?: ReactNode;
  /** Extra text in the heading, e.g. Tax Details' "As Of" date. */
  note?: ReactNode;
}

export function PropertySection({ id, title, empty, children, note }: PropertySectionProps) {
  return (
    <section className="opp-section" aria-labelledby={`${id}-heading`} id={id}>
      <h2 id={`${id}-heading`} className="opp-section__heading">
        {title}
        {note ? <span className="opp-section__note"> {note}</span> : null}
      </h2>
      {empty ? (
        <div className="opp-nodata">
          {/* A faint skeleton of a table under the overlay, so the section keeps its shape. */}
          <div className="opp-nodata__ghost" aria-hidden="true">
            <span />
            <span />
            <span />
          </div>
          <p className="opp-nodata__label">No Data</p>
        </div>
      ) : (
        children
      )}
    </section>
  );
}
