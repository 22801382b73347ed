import type { ReactNode } from 'react';
import { ScrollRegion } from './scroll-region';

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  /** Right-aligned figures. */
  numeric?: boolean;
}

export interface DataTableProps<T> {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  /** Caption for screen readers only (the section heading already says it). */
  hiddenCaption?: boolean;
  className?: string;
}

/**
 * A USWDS table that becomes a stacked list of labelled rows on narrow screens (≤ 767 px; spec §2).
 * Each cell carries its column name in data-label for the stacked view. Above that, headers wrap
 * between words; a table still wider than the screen scrolls inside its own region, never clipped.
 */
export function DataTable<T>({ caption, columns, rows, hiddenCaption = true, className }: DataTableProps<T>) {
  return (
    <ScrollRegion label={caption}>
      <table
        className={`usa-table usa-table--borderless opp-table opp-table--stack${className ? ` ${className}` : ''}`}
      >
        <caption className={hiddenCaption ? 'opp-visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? 'opp-num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.key} data-label={c.label} className={c.numeric ? 'opp-num' : undefined}>
                  {c.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

export interface Field {
  label: string;
  value: ReactNode;
}

/** Label/value pairs in a responsive grid (one column under 600 px). Empty values are left out. */
export function FieldList({ fields, className }: { fields: Field[]; className?: string }) {
  const shown = fields.filter((f) => f.value !== '' && f.value !== null && f.value !== undefined);
  return (
    <dl className={`opp-fields${className ? ` ${className}` : ''}`}>
      {shown.map((f) => (
        <div key={f.label} className="opp-fields__item">
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
