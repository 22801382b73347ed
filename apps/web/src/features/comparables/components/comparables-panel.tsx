import type { Comparable, ComparablesResponse, RollDates } from '@opp/contracts';
import {
  COMPARABLE_DISTANCE,
  COMPARABLE_SIZES,
  COMPARABLE_YEARS,
  DEFAULT_COMPARABLE_SIZE,
  NOMINAL_SALE_PRICE,
  type ComparableSize,
} from '@opp/contracts/comparable-criteria';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { DownloadIcon, PrintIcon } from '@/components/ui/icons';
import { PrintStamp } from '@/components/ui/print-stamp';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { useParcel } from '@/features/parcels/api/get-parcel';
import { errorText } from '@/utils/error-text';
import { formatCount, formatDate, formatMoney, formatNumber } from '@/utils/format';
import { comparablesCsvUrl, useComparables, type ComparableCriteria } from '../api/get-comparables';
import { ComparablesMap } from './comparables-map';
import '@/features/parcels/parcels.css';
import '../comparables.css';
import { usePrintAlone } from '@/hooks/use-print-alone';

export interface ComparablesPanelProps {
  clientId: number;
  account: string;
  hrefFor: (account: string) => string;
  /** What the town's roll dates from, for the worksheet's printed line. */
  dates?: Partial<RollDates> | null;
}

const PRINTING_CLASS = 'opp-printing-comparables';
const DISTANCES = [0.1, 0.25, 0.5, 1, 2, 3].filter(
  (d) => d >= COMPARABLE_DISTANCE.min && d <= COMPARABLE_DISTANCE.max,
);
const YEARS = Array.from(
  { length: COMPARABLE_YEARS.max - COMPARABLE_YEARS.min + 1 },
  (_, i) => COMPARABLE_YEARS.min + i,
);
const SIZE_LABELS: Record<ComparableSize, string> = {
  '10': 'Within 10%',
  '25': 'Within 25%',
  '50': 'Within 50%',
  any: 'Any size',
};
/** Phones see the panel's heading only until it is opened (spec: collapsed by default on phones). */
const WIDE = '(min-width: 768px)';

const miles = (d: number) => `${d} ${d === 1 ? 'mile' : 'miles'}`;
const years = (y: number) => `${y} ${y === 1 ? 'year' : 'years'}`;

type SortKey = 'rank' | 'address' | 'date' | 'price' | 'perSqFt' | 'area' | 'year' | 'distance';
interface Sort {
  key: SortKey;
  descending: boolean;
}
interface Row {
  rank: number;
  c: Comparable;
}

interface ColumnSpec {
  key: SortKey;
  label: string;
  numeric?: boolean;
  value: (r: Row) => number | string | null;
  render: (r: Row, hrefFor: (account: string) => string) => ReactNode;
}

const COLUMNS: ColumnSpec[] = [
  {
    key: 'rank',
    label: 'Rank (score)',
    numeric: true,
    value: (r) => r.rank,
    render: (r) => `${r.rank} (${r.c.Score})`,
  },
  {
    key: 'address',
    label: 'Address and map/lot',
    value: (r) => r.c.Location || r.c.Account,
    render: (r, hrefFor) => (
      <>
        <Link to={hrefFor(r.c.Account)}>{r.c.Location || `Account ${r.c.Account}`}</Link>
        {r.c.MapLot ? <span className="opp-comparables__maplot">Map/Lot {r.c.MapLot}</span> : null}
        {r.c.ArmsLength ? null : <span className="opp-comparables__flag">Not arm’s length</span>}
      </>
    ),
  },
  { key: 'date', label: 'Sale date', value: (r) => r.c.SaleDate, render: (r) => formatDate(r.c.SaleDate) },
  {
    key: 'price',
    label: 'Price',
    numeric: true,
    value: (r) => r.c.SalePrice,
    render: (r) => formatMoney(r.c.SalePrice),
  },
  {
    key: 'perSqFt',
    label: 'Price per sq ft',
    numeric: true,
    value: (r) => r.c.PricePerSqFt,
    render: (r) => formatMoney(r.c.PricePerSqFt),
  },
  {
    key: 'area',
    label: 'Living area (sq ft)',
    numeric: true,
    value: (r) => r.c.LivingArea,
    render: (r) => formatNumber(r.c.LivingArea),
  },
  {
    key: 'year',
    label: 'Year built',
    numeric: true,
    value: (r) => r.c.YearBuilt,
    render: (r) => r.c.YearBuilt ?? '',
  },
  {
    key: 'distance',
    label: 'Distance (mi)',
    numeric: true,
    value: (r) => r.c.DistanceMiles,
    render: (r) => r.c.DistanceMiles.toFixed(2),
  },
];

/** Empty values last whichever way; ties keep the rank order. */
function sortRows(rows: Row[], sort: Sort): Row[] {
  const column = COLUMNS.find((c) => c.key === sort.key)!;
  return [...rows].sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    if (x === null || y === null) return x === y ? a.rank - b.rank : x === null ? 1 : -1;
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return (sort.descending ? -order : order) || a.rank - b.rank;
  });
}

function leftOutNote(list: ComparablesResponse): string | null {
  const { Qualification, NominalPrice } = list.NotArmsLength;
  const total = Qualification + NominalPrice;
  if (total === 0) return null;
  const reasons = [
    Qualification ? `${formatCount(Qualification)} marked by the town as not arm’s length` : '',
    NominalPrice
      ? `${formatCount(NominalPrice)} with no price or a price under ${formatMoney(NOMINAL_SALE_PRICE)}`
      : '',
  ]
    .filter(Boolean)
    .join(', ');
  const sales = `${formatCount(total)} ${total === 1 ? 'sale' : 'sales'}`;
  return list.Criteria.AllSales
    ? `${sales} not at arm’s length ${total === 1 ? 'is' : 'are'} included and marked (${reasons}).`
    : `${sales} left out as not arm’s length (${reasons}).`;
}

/**
 * Issue 49: recent arm's-length sales of similar parcels near this one, ranked by similarity, as a
 * sortable table, on a map, as CSV and as a printable worksheet for an abatement application.
 */
export default function ComparablesPanel({ clientId, account, hrefFor, dates }: ComparablesPanelProps) {
  const id = useId();
  const parcel = useParcel(clientId, account);
  const [open, setOpen] = useState(
    () => typeof window.matchMedia !== 'function' || window.matchMedia(WIDE).matches,
  );
  const [criteria, setCriteria] = useState<ComparableCriteria>({
    distance: COMPARABLE_DISTANCE.default,
    years: COMPARABLE_YEARS.default,
    size: DEFAULT_COMPARABLE_SIZE,
    allSales: false,
  });
  const [sort, setSort] = useState<Sort>({ key: 'rank', descending: false });
  const comparables = useComparables(clientId, account, criteria, open && parcel.isSuccess);
  const list = comparables.data;
  const rows = useMemo(
    () =>
      sortRows(
        (list?.Comparables ?? []).map((c, i) => ({ rank: i + 1, c })),
        sort,
      ),
    [list, sort],
  );

  const print = usePrintAlone(PRINTING_CLASS);

  // A record without a shape on the town's map has no comparables to find.
  if (!parcel.isSuccess) return null;
  const change = (patch: Partial<ComparableCriteria>) => setCriteria((c) => ({ ...c, ...patch }));
  const sortBy = (key: SortKey) =>
    setSort((s) =>
      s.key === key ? { key, descending: !s.descending } : { key, descending: key === 'date' },
    );

  const count = list?.Comparables.length ?? 0;
  const status = comparables.isError
    ? ''
    : !list || comparables.isPlaceholderData
      ? 'Finding comparable sales…'
      : `${formatCount(list.Total)} comparable ${list.Total === 1 ? 'sale' : 'sales'} within ${miles(list.Criteria.DistanceMiles)}` +
        (list.Total > count ? `; the best ${formatCount(count)} are listed` : '');
  const note = list ? leftOutNote(list) : null;
  const subject = list?.Subject;
  const sortLabel = COLUMNS.find((c) => c.key === sort.key)!.label;

  return (
    <section className="opp-section opp-comparables" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="opp-section__heading opp-comparables__heading">
        <button
          type="button"
          className="opp-comparables__toggle"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen((o) => !o)}
        >
          Comparable sales
        </button>
      </h2>
      <div id={`${id}-body`} hidden={!open}>
        <p>
          Recent sales of similar properties near this one, most similar first: the kind of list an abatement
          application asks for. <a href="#comparables-how">How sales are chosen and ranked</a>.
        </p>

        <h3 className="opp-print-only opp-comparables__worksheet-title">Comparable sales worksheet</h3>
        {list && subject ? (
          <dl className="opp-fields opp-comparables__subject">
            <div className="opp-fields__item">
              <dt>Subject</dt>
              <dd>
                {subject.Location || `Account ${subject.Account}`}
                {subject.MapLot ? ` · Map/Lot ${subject.MapLot}` : ''} · Account {subject.Account}
              </dd>
            </div>
            <div className="opp-fields__item">
              <dt>Property class</dt>
              <dd>{subject.PropertyClass ?? 'Not recorded (not compared)'}</dd>
            </div>
            <div className="opp-fields__item">
              <dt>Living area</dt>
              <dd>
                {subject.LivingArea === null ? 'Not recorded' : `${formatNumber(subject.LivingArea)} sq ft`}
              </dd>
            </div>
            <div className="opp-fields__item">
              <dt>Year built</dt>
              <dd>{subject.YearBuilt ?? 'Not recorded'}</dd>
            </div>
            <div className="opp-fields__item">
              <dt>Criteria</dt>
              <dd>
                Within {miles(list.Criteria.DistanceMiles)}; sales from {formatDate(list.Criteria.PeriodFrom)}{' '}
                to {formatDate(list.Criteria.PeriodTo)}; same property class
                {list.Criteria.LivingAreaMin !== null
                  ? `; living area ${formatNumber(list.Criteria.LivingAreaMin)} to ${formatNumber(list.Criteria.LivingAreaMax)} sq ft`
                  : '; any living area'}
                {list.Criteria.AllSales
                  ? '; sales not at arm’s length included'
                  : '; arm’s-length sales only'}
              </dd>
            </div>
          </dl>
        ) : null}

        <form className="opp-comparables__controls" onSubmit={(e) => e.preventDefault()}>
          <div className="usa-form-group margin-top-0">
            <label className="usa-label margin-top-0" htmlFor={`${id}-distance`}>
              Distance
            </label>
            <select
              id={`${id}-distance`}
              className="usa-select"
              value={criteria.distance}
              onChange={(e) => change({ distance: Number(e.target.value) })}
            >
              {DISTANCES.map((d) => (
                <option key={d} value={d}>
                  Within {miles(d)}
                </option>
              ))}
            </select>
          </div>
          <div className="usa-form-group margin-top-0">
            <label className="usa-label margin-top-0" htmlFor={`${id}-years`}>
              Period
            </label>
            <select
              id={`${id}-years`}
              className="usa-select"
              value={criteria.years}
              onChange={(e) => change({ years: Number(e.target.value) })}
            >
              {YEARS.map((y) => (
                <option key={y} value={y}>
                  Last {years(y)}
                </option>
              ))}
            </select>
          </div>
          <div className="usa-form-group margin-top-0">
            <label className="usa-label margin-top-0" htmlFor={`${id}-size`}>
              Living area
            </label>
            <select
              id={`${id}-size`}
              className="usa-select"
              value={criteria.size}
              onChange={(e) => change({ size: e.target.value as ComparableSize })}
            >
              {COMPARABLE_SIZES.map((s) => (
                <option key={s} value={s}>
                  {SIZE_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div className="usa-checkbox opp-comparables__all">
            <input
              id={`${id}-all`}
              className="usa-checkbox__input"
              type="checkbox"
              checked={criteria.allSales}
              onChange={(e) => change({ allSales: e.target.checked })}
            />
            <label className="usa-checkbox__label" htmlFor={`${id}-all`}>
              Include sales that are not arm’s length
            </label>
          </div>
        </form>

        {list && count > 1 ? (
          // Where the table stacks into cards (phones) its headers are not shown: this sorts it instead.
          <div className="usa-form-group opp-comparables__sort">
            <label className="usa-label margin-top-0" htmlFor={`${id}-sort`}>
              Sort by
            </label>
            <select
              id={`${id}-sort`}
              className="usa-select"
              value={`${sort.key}:${sort.descending ? 'descending' : 'ascending'}`}
              onChange={(e) => {
                const [key, order] = e.target.value.split(':') as [SortKey, string];
                setSort({ key, descending: order === 'descending' });
              }}
            >
              {COLUMNS.flatMap((c) =>
                (['ascending', 'descending'] as const).map((order) => (
                  <option key={`${c.key}:${order}`} value={`${c.key}:${order}`}>
                    {c.label}, {order}
                  </option>
                )),
              )}
            </select>
          </div>
        ) : null}

        <p className="opp-count" role="status" aria-live="polite">
          {status}
        </p>
        {note ? <p className="opp-comparables__note">{note}</p> : null}

        {comparables.isError ? (
          <Alert
            type="error"
            role="alert"
            text={<>The comparable sales could not be listed. {errorText(comparables.error)}</>}
          />
        ) : null}

        {list && !comparables.isError ? (
          <>
            <div className="opp-comparables__actions">
              <a
                className="usa-button usa-button--outline"
                href={comparablesCsvUrl(clientId, account, criteria)}
                download
              >
                <DownloadIcon size={20} /> Download CSV
              </a>
              <button type="button" className="usa-button usa-button--outline" onClick={print}>
                <PrintIcon size={20} /> Print worksheet
              </button>
            </div>
            {count === 0 ? (
              <p className="opp-empty">
                No comparable sale matches these criteria. Try a longer distance or period, or any living
                area.
              </p>
            ) : (
              <>
                <ComparablesMap subject={parcel.data} comparables={list.Comparables} hrefFor={hrefFor} />
                <ScrollRegion label="Comparable sales">
                  <table className="usa-table usa-table--borderless opp-table opp-table--stack opp-comparables__table">
                    <caption className="opp-visually-hidden">
                      Comparable sales, sorted by {sortLabel} {sort.descending ? 'descending' : 'ascending'}.
                      Column headers are buttons that change the sort.
                    </caption>
                    <thead>
                      <tr>
                        {COLUMNS.map((c) => (
                          <th
                            key={c.key}
                            scope="col"
                            className={c.numeric ? 'opp-num' : undefined}
                            aria-sort={
                              sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : 'none'
                            }
                          >
                            <button type="button" className="opp-sort-button" onClick={() => sortBy(c.key)}>
                              {c.label}
                              <span aria-hidden="true">
                                {sort.key === c.key ? (sort.descending ? ' ▼' : ' ▲') : ''}
                              </span>
                            </button>
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((r) => (
                        <tr key={`${r.c.Account} ${r.c.SaleDate} ${r.rank}`}>
                          {COLUMNS.map((c) => (
                            <td
                              key={c.key}
                              data-label={c.label}
                              className={c.numeric ? 'opp-num' : undefined}
                            >
                              {c.render(r, hrefFor)}
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </ScrollRegion>
              </>
            )}
          </>
        ) : null}

        <div id="comparables-how" className="opp-comparables__how">
          <h3 className="opp-subsection__heading">How sales are chosen and ranked</h3>
          <p>
            A sale is comparable when the parcel’s centre lies within the distance of this parcel’s centre, it
            sold within the period (up to the most recent sale the town’s records hold), it is of the same
            property class (the town’s use code), and, where this parcel has a living area, its living area is
            within the range chosen. Sales the town marks as not arm’s length, and sales with no price or a
            price under {formatMoney(NOMINAL_SALE_PRICE)}, are left out unless you include them. The score (0
            to 100) weighs distance (35%), difference in living area (25%), difference in year built (20%) and
            how recent the sale is (20%).
          </p>
        </div>
        <PrintStamp dates={dates} />
      </div>
    </section>
  );
}
