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

export interface ListColumn<T> {
  label: string;
  render: (row: T) => ReactNode;
}

export interface ListTableProps<T> {
  /** The section heading's id (FilterableSection's children get it): names the scrolling region. */
  headingId: string;
  caption: string;
  /** The first column names the row (its row header); each cell carries its label for narrow screens. */
  columns: [ListColumn<T>, ...ListColumn<T>[]];
  rows: T[];
  rowKey: (row: T) => string | number;
  /** The last, unlabelled column: the row's Edit and Delete (RowActions). */
  actions: (row: T) => ReactNode;
}

/** The table of a FilterableSection: a list an admin filters, edits and deletes from. */
export function ListTable<T>({ headingId, caption, columns, rows, rowKey, actions }: ListTableProps<T>) {
  const [first, ...rest] = columns;
  return (
    <div className="usa-table-container--scrollable" tabIndex={0} aria-labelledby={headingId}>
      <table className="usa-table usa-table--borderless width-full opp-admin-table">
        <caption className="opp-visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col">
                {c.label}
              </th>
            ))}
            <th scope="col">
              <span className="opp-visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              <th scope="row" data-label={first.label}>
                {first.render(row)}
              </th>
              {rest.map((c) => (
                <td key={c.label} data-label={c.label}>
                  {c.render(row)}
                </td>
              ))}
              <td className="opp-admin-actions">{actions(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
