import type { SortColumn, Suggestion } from '@opp/contracts';
import { useDeferredValue, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { DownloadIcon, GridIcon, ListIcon, MapIcon, SearchIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { ResultsMapView } from '@/features/parcels/components/lazy-results-map';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/utils/error-text';
import { useDialog } from '@/hooks/use-dialog';
import { formatCount } from '@/utils/format';
import { shownRange } from '@/utils/paging';
import { rollDatesText } from '@/utils/roll-dates';
import { exportCsvUrl } from '../api/export-csv';
import { useResultPoints } from '../api/get-result-points';
import { useSearchProperties } from '../api/search-properties';
import { useSearchState } from '../hooks/use-search-state';
import { filterChips } from '../utils/filter-chips';
import { saveResults } from '../utils/result-set';
import {
  activeFilterCount,
  DEFAULT_SEARCH,
  nextSort,
  PAGE_SIZE,
  type FilterForm,
  type SortState,
  type ViewStyle,
} from '../utils/search-state';
import { AdvancedSearchModal } from './advanced-search-modal';
import { PageBar } from './page-bar';
import { ResultsGrid } from './results-grid';
import { ResultsSkeleton } from './results-skeleton';
import { ResultsTable } from './results-table';
import { SearchBar } from './search-bar';
import { SortPanel } from './sort-panel';

export interface SearchScreenProps {
  clientId: number;
  /** The state and city as they appear in the URL. */
  state: string;
  city: string;
  /** The town has a parcel map: the results get a Map view (issue 40). */
  hasParcelMap?: boolean;
}

/** Spec §2 Search results below the town heading: search box, filters, results, paging. */
export function SearchScreen({ clientId, state, city, hasParcelMap = false }: SearchScreenProps) {
  const navigate = useNavigate();
  const [search, setSearch] = useSearchState(state, city);
  const {
    openerRef: advancedRef,
    open: advancedOpen,
    show: showAdvanced,
    close: closeAdvanced,
  } = useDialog();
  const result = useSearchProperties(clientId, search);
  // Every result's place, asked only while the Map view is shown.
  const points = useResultPoints(clientId, search, search.view === 'map' && hasParcelMap);
  const panelId = useId();
  const searchBoxRef = useRef<HTMLDivElement>(null);
  // On a phone the search panel folds into a one-line summary once a search has run, so the first
  // screen shows results (styles/public.css: only under 768 px).
  const searched = search.query !== '' || activeFilterCount(search.filters) > 0;
  const [collapsed, setCollapsed] = useState(searched);
  const expandPanel = () => {
    setCollapsed(false);
    requestAnimationFrame(() => searchBoxRef.current?.querySelector('input')?.focus());
  };
  const data = result.data;
  // The results (count, rows, pages) are drawn in a transition, in slices a phone can answer a tap
  // between: a page of results arrives as a synchronous update (react-query's store), and 50 rows at
  // once are a long task.
  const shown = useDeferredValue(data);
  const hrefFor = (account: string) => paths.property.getHref(state, city, account);

  // Spec §4: the list of result paths is stored whenever the results change (Previous/Next on records),
  // with the search itself, so a record's Previous/Next walk the whole result set.
  useEffect(() => {
    if (!data || result.isPlaceholderData) return;
    saveResults(state, city, {
      search: { ...search, page: data.PageNumber },
      page: data.PageNumber,
      pageSize: data.PageSize || PAGE_SIZE,
      total: data.TotalRecords,
      paths: data.SearchProperties.map((p) => paths.property.getHref(state, city, p.Account)),
    });
    // The search is read as of these results; a change of search brings new results.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, state, city]);

  // Spec §2: the page scrolls to the top when a page of results arrives.
  const lastShown = useRef<unknown>(null);
  useEffect(() => {
    if (!data || result.isPlaceholderData || lastShown.current === data) return;
    lastShown.current = data;
    window.scrollTo({ top: 0 });
  }, [data, result.isPlaceholderData]);

  // A bookmarked page past the end (the roll shrank) shows the last page instead.
  useEffect(() => {
    if (data && !result.isPlaceholderData && data.Pages > 0 && search.page > data.Pages)
      setSearch({ ...search, page: data.Pages }, { replace: true });
  }, [data, result.isPlaceholderData, search, setSearch]);

  const onSort = (column: SortColumn) =>
    setSearch({ ...search, sort: nextSort(search.sort, column), page: 1 });
  const onQuery = (query: string) => {
    setCollapsed(query.trim() !== '' || activeFilterCount(search.filters) > 0);
    setSearch({ ...search, query: query.trim(), page: 1 });
  };
  const onPick = (s: Suggestion) => {
    if (s.account) void navigate(hrefFor(s.account));
    else onQuery(s.text);
  };
  const onApplyFilters = (filters: FilterForm, sort: SortState) => {
    closeAdvanced();
    setCollapsed(search.query !== '' || activeFilterCount(filters) > 0);
    setSearch({ ...search, filters, sort, page: 1 });
  };
  const onClear = () => {
    setCollapsed(false);
    setSearch({ ...DEFAULT_SEARCH, view: search.view });
  };
  const chips = filterChips(search.filters);
  const onView = (view: ViewStyle) => setSearch({ ...search, view });

  const total = shown?.TotalRecords ?? 0;
  const { from, to } = shown
    ? shownRange(shown.PageNumber, shown.PageSize || PAGE_SIZE, total)
    : { from: 0, to: 0 };
  const countText = shown
    ? total === 0
      ? 'No properties match'
      : `Showing ${formatCount(from)} to ${formatCount(to)} of ${shown.TotalIsEstimate ? 'about ' : ''}${formatCount(total)} ${total === 1 ? 'result' : 'results'}`
    : result.isError
      ? ''
      : 'Loading results…';

  const filterCount = activeFilterCount(search.filters);
  const summary = [
    search.query ? `“${search.query}”` : 'All properties',
    filterCount ? `${filterCount} filter${filterCount === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <div className={`opp-search${collapsed ? ' is-collapsed' : ''}`}>
      <div className="opp-search-summary">
        <p className="opp-search-summary__text">
          <SearchIcon size={18} /> <span className="opp-visually-hidden">Searched for </span>
          {summary}
        </p>
        <button
          type="button"
          className="usa-button usa-button--outline opp-search-summary__btn"
          aria-expanded={false}
          aria-controls={panelId}
          onClick={expandPanel}
        >
          Change search
        </button>
      </div>
      <div id={panelId} ref={searchBoxRef} className="opp-search-panel">
        <SearchBar
          clientId={clientId}
          query={search.query}
          filterCount={filterCount}
          onSearch={onQuery}
          onPickSuggestion={onPick}
          onAdvanced={showAdvanced}
          advancedRef={advancedRef}
          onClear={onClear}
        />
      </div>
      <AdvancedSearchModal
        clientId={clientId}
        open={advancedOpen}
        filters={search.filters}
        sort={search.sort}
        onClose={closeAdvanced}
        onApply={onApplyFilters}
      />

      <section className="opp-results" aria-labelledby="results-heading" aria-busy={result.isFetching}>
        <h2 id="results-heading" className="opp-visually-hidden">
          Search results
        </h2>
        <div className="opp-toolbar">
          <div className="opp-toolbar__count">
            <p className="opp-count" role="status" aria-live="polite">
              {countText}
            </p>
            {rollDatesText(shown) ? <p className="opp-asof">{rollDatesText(shown)}</p> : null}
          </div>
          <div className="opp-toolbar__actions">
            <SortPanel sort={search.sort} onSort={onSort} always={search.view === 'grid'} />
            <div className="opp-viewtoggle" role="group" aria-label="Layout">
              <button
                type="button"
                className={`usa-button opp-toolbar__btn${search.view === 'list' ? '' : ' usa-button--outline'}`}
                aria-pressed={search.view === 'list'}
                onClick={() => onView('list')}
              >
                <ListIcon size={20} /> List
              </button>
              <button
                type="button"
                className={`usa-button opp-toolbar__btn${search.view === 'grid' ? '' : ' usa-button--outline'}`}
                aria-pressed={search.view === 'grid'}
                onClick={() => onView('grid')}
              >
                <GridIcon size={20} /> Grid
              </button>
              {hasParcelMap ? (
                <button
                  type="button"
                  className={`usa-button opp-toolbar__btn${search.view === 'map' ? '' : ' usa-button--outline'}`}
                  aria-pressed={search.view === 'map'}
                  onClick={() => onView('map')}
                >
                  <MapIcon size={20} /> Map
                </button>
              ) : null}
            </div>
            {shown && total > 0 ? (
              <a
                className="usa-button usa-button--outline opp-toolbar__btn"
                href={exportCsvUrl(clientId, search)}
                download
              >
                <DownloadIcon size={20} /> <span className="opp-toolbar__long">Download </span>CSV
              </a>
            ) : !shown && (result.isPending || data) ? (
              // Holds the button's place while the first page loads: the toolbar does not reflow when it comes.
              <span
                className="usa-button usa-button--outline opp-toolbar__btn opp-placeholder"
                aria-hidden="true"
              >
                <DownloadIcon size={20} /> <span className="opp-toolbar__long">Download </span>CSV
              </span>
            ) : null}
          </div>
        </div>

        {chips.length > 0 ? (
          <ul className="opp-chips" aria-label="Active filters">
            {chips.map((chip) => (
              <li key={chip.id}>
                <button
                  type="button"
                  className="opp-chip"
                  onClick={() => setSearch({ ...search, filters: chip.without(search.filters), page: 1 })}
                >
                  {chip.label}
                  <span aria-hidden="true" className="opp-chip__x">
                    ×
                  </span>
                  <span className="opp-visually-hidden"> (remove this filter)</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}

        {result.isError ? (
          <Alert type="error" role="alert" text="An error has occured please try again">
            {result.error instanceof ApiError && result.error.status === 400 ? (
              <p className="usa-alert__text">{errorText(result.error)}</p>
            ) : null}
          </Alert>
        ) : null}

        {!shown && (result.isPending || data) ? <ResultsSkeleton /> : null}

        {shown && shown.SearchProperties.length === 0 ? (
          <p className="opp-empty">
            {shown.LastUpdated === null
              ? 'This town has not published its property records yet. Please check back later.'
              : 'No properties match this search. Try fewer words or clear the filters.'}
          </p>
        ) : null}

        {shown && shown.SearchProperties.length > 0 ? (
          <div
            className={
              result.isPlaceholderData || shown !== data ? 'opp-results__body is-stale' : 'opp-results__body'
            }
          >
            {search.view === 'map' && hasParcelMap ? (
              // The map is an enhancement: the list below it is the accessible way to the same results.
              <ResultsMapView points={points.data ?? null} failed={points.isError} hrefFor={hrefFor} />
            ) : null}
            {search.view === 'grid' ? (
              <ResultsGrid results={shown.SearchProperties} hrefFor={hrefFor} />
            ) : (
              <ResultsTable
                results={shown.SearchProperties}
                sort={search.sort}
                onSort={onSort}
                hrefFor={hrefFor}
              />
            )}
          </div>
        ) : null}

        {shown && shown.Pages > 0 ? (
          <PageBar page={search.page} pages={shown.Pages} onPage={(page) => setSearch({ ...search, page })} />
        ) : null}
      </section>
    </div>
  );
}
