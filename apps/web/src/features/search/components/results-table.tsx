import type { SearchResult, SortColumn } from '@opp/contracts';
import { Link, useNavigate } from 'react-router';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { formatAcres, formatLotSquareFeet } from '@/utils/format';
import { useFirstRowsFirst } from '../hooks/use-first-rows-first';
import { SORT_OPTIONS, YEAR_BUILT_SORT, type SortState } from '../utils/search-state';
import {
  buildingLandText,
  comparingColumns,
  locationText,
  moreOwnersText,
  ownerNames,
  ResultThumbnail,
  saleDateText,
  salePriceText,
  STYLE_LABEL,
  styleText,
  yearBuiltText,
} from './result-fields';
import { sortDescription, SortIndicator } from './sort-indicator';

export interface ResultsViewProps {
  results: SearchResult[];
  sort: SortState;
  onSort: (column: SortColumn) => void;
  hrefFor: (account: string) => string;
}

/** A sortable column's header: a button that changes the sort, announcing its state (aria-sort). */
function SortHeader({
  column,
  label,
  sort,
  onSort,
  className,
}: {
  column: SortColumn;
  label: string;
  sort: SortState;
  onSort: (column: SortColumn) => void;
  className?: string;
}) {
  const active = sort.sortby === column;
  return (
    <th
      scope="col"
      className={className}
      aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
    >
      <button type="button" className="opp-sort-button" onClick={() => onSort(column)}>
        {label}
        <SortIndicator column={column} sort={sort} />
      </button>
    </th>
  );
}

/**
 * Year Built and Style as lines under the location, for a tablet's width, where the table has no room
 * for their two columns (styles/public.css shows one or the other); nothing when the row has neither.
 */
function ComparingLines({ result }: { result: SearchResult }) {
  const year = yearBuiltText(result);
  const style = styleText(result);
  if (!year && !style) return null;
  return (
    <span className="opp-cell__comparing">
      {year ? <span className="display-block">{`${YEAR_BUILT_SORT.label} ${year}`}</span> : null}
      {style ? <span className="display-block">{`${STYLE_LABEL} ${style}`}</span> : null}
    </span>
  );
}

/**
 * List view (the default): a real table with sortable column headers that announce their state
 * (aria-sort). Under 768 px the rows stack into compact labelled cards (styles/public.css); above, the
 * headers wrap between words and a table still too wide scrolls inside its own region. Year Built and
 * Style come last, where the page's results have them; from 768 to 1023 px they are lines under the
 * location instead, which keeps the table within the screen.
 */
export function ResultsTable({ results, sort, onSort, hrefFor }: ResultsViewProps) {
  const navigate = useNavigate();
  const rows = useFirstRowsFirst(results);
  const shown = comparingColumns(results);
  return (
    <ScrollRegion label="Search results">
      <table className="usa-table usa-table--borderless opp-results-table">
        <caption className="opp-visually-hidden">
          Search results. {sortDescription(sort)}. Column headers are buttons that change the sort.
        </caption>
        <thead>
          <tr>
            <th scope="col" className="opp-results-table__photo">
              Photo
            </th>
            {SORT_OPTIONS.map(({ column, label }) => (
              <SortHeader key={column} column={column} label={label} sort={sort} onSort={onSort} />
            ))}
            {shown.yearBuilt ? (
              <SortHeader {...YEAR_BUILT_SORT} sort={sort} onSort={onSort} className="opp-col--comparing" />
            ) : null}
            {shown.style ? (
              <th scope="col" className="opp-results-table__plain opp-col--comparing">
                {STYLE_LABEL}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => {
            const href = hrefFor(p.Account);
            const owners = ownerNames(p);
            const more = moreOwnersText(p);
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
                <td data-label="Map/Lot" className="opp-cell--maplot">
                  <Link to={href} className="opp-results-link">
                    {p.MapLot || p.Account}
                    <span className="opp-visually-hidden">
                      {locationText(p) ? `, ${locationText(p)}` : ''} (account {p.Account})
                    </span>
                  </Link>
                </td>
                <td data-label="Name" className="opp-cell--name">
                  <span>
                    {owners.map((o, i) => (
                      <span key={i} className="display-block">
                        {o}
                      </span>
                    ))}
                    {more ? <span className="display-block opp-more">{more}</span> : null}
                  </span>
                </td>
                <td data-label="Location" className="opp-cell--location">
                  {locationText(p)}
                  <ComparingLines result={p} />
                </td>
                <td data-label="Building + Land" className="opp-num opp-cell--value">
                  {buildingLandText(p)}
                </td>
                <td data-label="Acres" className="opp-num opp-cell--acres">
                  {formatAcres(p.TotalAcres)}
                  {/* On a line of its own, so the column stays as narrow as its acres. */}
                  {formatLotSquareFeet(p.TotalAcres) ? (
                    <span className="opp-lot-sqft">{formatLotSquareFeet(p.TotalAcres)}</span>
                  ) : null}
                </td>
                <td data-label="Last Sale Date" className="opp-cell--date">
                  {saleDateText(p)}
                </td>
                <td data-label="Last Sale Price" className="opp-num opp-cell--price">
                  {salePriceText(p)}
                </td>
                {shown.yearBuilt ? (
                  <td
                    data-label={YEAR_BUILT_SORT.label}
                    className="opp-num opp-cell--year opp-col--comparing"
                  >
                    {yearBuiltText(p)}
                  </td>
                ) : null}
                {shown.style ? (
                  <td data-label={STYLE_LABEL} className="opp-cell--style opp-col--comparing">
                    {styleText(p)}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
