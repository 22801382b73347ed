import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  DEFAULT_SEARCH,
  hasSearchParams,
  loadSearchState,
  paramsToSearch,
  saveSearchState,
  searchToParams,
  type SearchState,
} from '../utils/search-state';

/**
 * The current search, read from the URL. Arriving on a bare /{state}/{city}/search restores the stored
 * state for that town (spec §4) and writes it into the URL (replacing the entry, so Back does not
 * bounce); after that a bare URL is the default search (as after Clear filters). Every change is a new
 * history entry (Back/Forward walk through searches) and is saved, which restarts the 7-day expiry.
 * The component using this must remount per visit (the route does), since arrival is its mount.
 */
export function useSearchState(state: string, city: string) {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const fromUrl = hasSearchParams(params);

  const [restored] = useState(() => (fromUrl ? null : loadSearchState(state, city)));
  const [restoring, setRestoring] = useState(() => restored !== null && searchToParams(restored).size > 0);
  if (restoring && fromUrl) setRestoring(false);

  const search = useMemo<SearchState>(() => {
    const p = new URLSearchParams(key);
    if (hasSearchParams(p)) return paramsToSearch(p);
    return restoring && restored ? restored : DEFAULT_SEARCH;
  }, [key, restoring, restored]);

  useEffect(() => {
    if (restoring && restored)
      setParams(searchToParams(restored), { replace: true, preventScrollReset: true });
  }, [restoring, restored, setParams]);

  useEffect(() => {
    // Only a real change is saved: merely looking at a search must not extend its life.
    const stored = loadSearchState(state, city);
    if (JSON.stringify(stored) !== JSON.stringify(search)) saveSearchState(state, city, search);
  }, [search, state, city]);

  const setSearch = useCallback(
    (next: SearchState, options: { replace?: boolean } = {}) =>
      setParams(searchToParams(next), { replace: options.replace, preventScrollReset: true }),
    [setParams],
  );

  return [search, setSearch] as const;
}
