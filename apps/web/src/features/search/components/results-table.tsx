import type { PropertySummary, SortColumn } from '@opp/contracts';
import { Link, useNavigate } from 'react-router';
import { useFirstRowsFirst } from '../hooks/use-first-rows-first';
import { SORT_OPTIONS, type SortState } from '../utils/search-state';
import {
  acresText,
  buildingLandText,
  locationText,
  ownerNames,
  ResultThumbnail,
  saleDateText,
  salePriceText,
} from './result-fields';
import { sortDescription, SortIndicator } from './sort-indicator';

export interface ResultsViewProps {
  results: PropertySummary[];
  sort: SortState;
  onSort: (column: SortColumn) => void;
  hrefFor: (account: string) => string;
}

/**
 * List view (the default): a real table with sortable column headers that announce their state
 * (aria-sort). Under 768 px the rows stack into labelled cards (styles/public.css).
 */
export function ResultsTable({ results, sort, onSort, hrefFor }: ResultsViewProps) {
  const navigate = useNavigate();
  const rows = useFirstRowsFirst(results);
  const activeLabel = SORT_OPTIONS.find((o) => o.column === sort.sortby)?.label ?? sort.sortby;
  return (
    <table className="usa-table usa-table--borderless opp-results-table">
      <caption className="opp-visually-hidden">
        Search results. {sortDescription(sort, activeLabel)}. Column headers are buttons that change the sort.
      </caption>
      <thead>
        <tr>
          <th scope="col" className="opp-results-table__photo">
            <span className="opp-visually-hidden">Photo</span>
          </th>
          {SORT_OPTIONS.map(({ column, label }) => {
            const active = sort.sortby === column;
            return (
              <th
                key={column}
                scope="col"
                aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
              >
                <button type="button" className="opp-sort-button" onClick={() => onSort(column)}>
                  {label}
                  <SortIndicator column={column} sort={sort} />
                </button>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => {
          const href = hrefFor(p.Account);
          const owners = ownerNames(p);
          return (
            <tr
              key={p.Account}
              className="opp-results-row"
              onClick={(e) => {
                // The row is a larger click target for mouse users; keyboard users have the link.
                if ((e.target as HTMLElement).closest('a, button')) return;
                void navigate(href);
              }}
            >
              <td className="opp-results-table__photo">
                <ResultThumbnail property={p} className="opp-thumb" />
              </td>
              <td data-label="Map/Lot">
                <Link to={href} className="opp-results-link">
                  {p.MapLot || p.Account}
                  <span className="opp-visually-hidden">
                    {locationText(p) ? `, ${locationText(p)}` : ''} (account {p.Account})
                  </span>
                </Link>
              </td>
              <td data-label="Name">
                <span>
                  {owners.map((o, i) => (
                    <span key={i} className="display-block">
                      {o}
                    </span>
                  ))}
                </span>
              </td>
              <td data-label="Location">{locationText(p)}</td>
              <td data-label="Building + Land" className="opp-num">
                {buildingLandText(p)}
              </td>
              <td data-label="Acres" className="opp-num">
                {acresText(p)}
              </td>
              <td data-label="Last Sale Date">{saleDateText(p)}</td>
              <td data-label="Last Sale Price" className="opp-num">
                {salePriceText(p)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
