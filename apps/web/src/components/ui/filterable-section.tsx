import { useId, type ReactNode } from 'react';

export interface FilterableSectionProps {
  title: string;
  addLabel: string;
  onAdd: () => void;
  filterLabel: string;
  query: string;
  onQueryChange: (query: string) => void;
  /** Announced to screen readers as the filter changes what is shown ("2 of 5 contacts shown"). */
  status: string;
  /** The list and its dialogs; receives the heading's id for the table's aria-labelledby. */
  children: (headingId: string) => ReactNode;
}

/** A municipality-admin list panel (spec §2): heading, Add button, client-side filter box, live count. */
export function FilterableSection(props: FilterableSectionProps) {
  const id = useId();
  const headingId = `${id}-heading`;
  return (
    <section className="opp-admin-section" aria-labelledby={headingId}>
      <div className="opp-admin-section__head">
        <h2 id={headingId} className="margin-0">
          {props.title}
        </h2>
        <button type="button" className="usa-button" aria-haspopup="dialog" onClick={props.onAdd}>
          {props.addLabel}
        </button>
      </div>
      <label className="usa-label" htmlFor={`${id}-filter`}>
        {props.filterLabel}
      </label>
      <input
        id={`${id}-filter`}
        className="usa-input opp-filter-input"
        type="search"
        value={props.query}
        onChange={(e) => props.onQueryChange(e.target.value)}
      />
      <p className="opp-visually-hidden" role="status">
        {props.status}
      </p>
      {props.children(headingId)}
    </section>
  );
}

/** Edit and Delete buttons of one row, named after the row for screen readers. */
export function RowActions({
  name,
  onEdit,
  onDelete,
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <>
      <button
        type="button"
        className="usa-button usa-button--outline usa-button--small"
        aria-haspopup="dialog"
        aria-label={`Edit ${name}`}
        onClick={onEdit}
      >
        Edit
      </button>
      <button
        type="button"
        className="usa-button usa-button--secondary usa-button--small"
        aria-haspopup="dialog"
        aria-label={`Delete ${name}`}
        onClick={onDelete}
      >
        Delete
      </button>
    </>
  );
}
