import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { paths } from '@/config/paths';
import { searchPropertiesQueryOptions } from '../api/search-properties';
import { loadResults, moveToPage, type StoredResults } from '../utils/result-set';
import { DEFAULT_SEARCH } from '../utils/search-state';

export interface ResultStep {
  href: string;
  /** Called as the link is followed (stores the neighbouring page when the step crosses into it). */
  onFollow?: () => void;
}

export interface ResultPosition {
  /** 1-based position in the whole result set. */
  number: number;
  total: number;
  previous: ResultStep | null;
  next: ResultStep | null;
}

/**
 * Where this record sits in the stored search's whole result set (spec §4: only when the stored list is
 * unexpired and holds the record; null otherwise). At the first or last record of its page, the
 * neighbouring page is fetched so Previous/Next carry on across pages.
 */
export function useResultPosition(
  state: string,
  city: string,
  account: string,
  clientId: number | undefined,
): ResultPosition | null {
  const stored = useMemo(() => {
    const r = loadResults(state, city);
    if (!r) return null;
    const here = paths.property.getHref(state, city, account).toLowerCase();
    const index = r.paths.findIndex((x) => x.toLowerCase() === here);
    return index >= 0 ? { r, index } : null;
  }, [state, city, account]);

  const edge = !stored
    ? 0
    : stored.index === stored.r.paths.length - 1 && stored.r.page * stored.r.pageSize < stored.r.total
      ? 1
      : stored.index === 0 && stored.r.page > 1
        ? -1
        : 0;
  const neighbourPage = stored ? stored.r.page + edge : 1;
  const neighbour = useQuery({
    ...searchPropertiesQueryOptions(clientId ?? 0, {
      ...(stored?.r.search ?? DEFAULT_SEARCH),
      page: neighbourPage,
    }),
    enabled: clientId !== undefined && stored !== null && edge !== 0,
  });

  if (!stored) return null;
  const { r, index } = stored;
  const within = (i: number): ResultStep | null => {
    const href = r.paths[i];
    return href ? { href } : null;
  };
  const across = (pick: 'first' | 'last'): ResultStep | null => {
    const data = neighbour.data;
    if (!data || data.SearchProperties.length === 0) return null;
    const list = data.SearchProperties.map((p) => paths.property.getHref(state, city, p.Account));
    const next: StoredResults = {
      search: { ...r.search, page: neighbourPage },
      page: neighbourPage,
      pageSize: data.PageSize || r.pageSize,
      total: data.TotalRecords,
      paths: list,
    };
    return {
      href: pick === 'first' ? list[0]! : list.at(-1)!,
      onFollow: () => moveToPage(state, city, next),
    };
  };
  return {
    number: (r.page - 1) * r.pageSize + index + 1,
    total: r.total,
    previous: index > 0 ? within(index - 1) : edge === -1 ? across('last') : null,
    next: index < r.paths.length - 1 ? within(index + 1) : edge === 1 ? across('first') : null,
  };
}
