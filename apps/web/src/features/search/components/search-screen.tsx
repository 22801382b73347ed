import type { SortColumn, Suggestion } from '@opp/contracts';
import { useDeferredValue, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { DownloadIcon, GridIcon, ListIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useDialog } from '@/hooks/use-dialog';
import { formatCount, formatDateTime } from '@/utils/format';
import { shownRange } from '@/utils/paging';
import { exportCsvUrl } from '../api/export-csv';
import { useSearchProperties } from '../api/search-properties';
import { useSearchState } from '../hooks/use-search-state';
import {
  activeFilterCount,
  DEFAULT_SEARCH,
  nextSort,
  PAGE_SIZE,
  saveResultPaths,
  type FilterForm,
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
}

/** Spec §2 Search results below the town heading: search box, filters, results, paging. */
export function SearchScreen({ clientId, state, city }: SearchScreenProps) {
  const navigate = useNavigate();
  const [search, setSearch] = useSearchState(state, city);
  const {
    openerRef: advancedRef,
    open: advancedOpen,
    show: showAdvanced,
    close: closeAdvanced,
  } = useDialog();
  const result = useSearchProperties(clientId, search);
  const data = result.data;
  // The results (count, rows, pages) are drawn in a transition, in slices a phone can answer a tap
  // between: a page of results arrives as a synchronous update (react-query's store), and 50 rows at
  // once are a long task.
  const shown = useDeferredValue(data);
  const hrefFor = (account: string) => paths.property.getHref(state, city, account);

  // Spec §4: the list of result paths is stored whenever the results change (Previous/Next on records).
  useEffect(() => {
    if (!data) return;
    saveResultPaths(
      state,
      city,
      data.SearchProperties.map((p) => paths.property.getHref(state, city, p.Account)),
    );
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
  const onQuery = (query: string) => setSearch({ ...search, query: query.trim(), page: 1 });
  const onPick = (s: Suggestion) => {
    if (s.account) void navigate(hrefFor(s.account));
    else onQuery(s.text);
  };
  const onApplyFilters = (filters: FilterForm) => {
    closeAdvanced();
    setSearch({ ...search, filters, page: 1 });
  };
  const onClear = () => setSearch({ ...DEFAULT_SEARCH, view: search.view });
  const onView = (view: ViewStyle) => setSearch({ ...search, view });

  const total = shown?.TotalRecords ?? 0;
  const { from, to } = shown
    ? shownRange(shown.PageNumber, shown.PageSize || PAGE_SIZE, total)
    : { from: 0, to: 0 };
  const countText = shown
    ? `Showing ${formatCount(from)} to ${formatCount(to)} of ${shown.TotalIsEstimate ? 'about ' : ''}${formatCount(total)} results`
    : result.isError
      ? ''
      : 'Loading results…';

  return (
    <div className="opp-search">
      <SearchBar
        clientId={clientId}
        query={search.query}
        filterCount={activeFilterCount(search.filters)}
        onSearch={onQuery}
        onPickSuggestion={onPick}
        onAdvanced={showAdvanced}
        advancedRef={advancedRef}
        onClear={onClear}
      />
      <AdvancedSearchModal
        clientId={clientId}
        open={advancedOpen}
        filters={search.filters}
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
            {shown?.LastUpdated ? (
              <p className="opp-asof">Data as of {formatDateTime(shown.LastUpdated)}</p>
            ) : null}
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
            </div>
            {shown && total > 0 ? (
              <a
                className="usa-button usa-button--outline opp-toolbar__btn"
                href={exportCsvUrl(clientId, search)}
                download
              >
                <DownloadIcon size={20} /> Download CSV
              </a>
            ) : !shown && (result.isPending || data) ? (
              // Holds the button's place while the first page loads: the toolbar does not reflow when it comes.
              <span
                className="usa-button usa-button--outline opp-toolbar__btn opp-placeholder"
                aria-hidden="true"
              >
                <DownloadIcon size={20} /> Download CSV
              </span>
            ) : null}
          </div>
        </div>

        {result.isError ? (
          <div className="usa-alert usa-alert--error usa-alert--slim" role="alert">
            <div className="usa-alert__body">
              <p className="usa-alert__text">An error has occured please try again</p>
              {result.error instanceof ApiError && result.error.status === 400 ? (
                <p className="usa-alert__text">{result.error.message}</p>
              ) : null}
            </div>
          </div>
        ) : null}

        {!shown && (result.isPending || data) ? <ResultsSkeleton /> : null}

        {shown && shown.SearchProperties.length === 0 ? (
          <p className="opp-empty">No properties match this search. Try fewer words or clear the filters.</p>
        ) : null}

        {shown && shown.SearchProperties.length > 0 ? (
          <div
            className={
              result.isPlaceholderData || shown !== data ? 'opp-results__body is-stale' : 'opp-results__body'
            }
          >
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
