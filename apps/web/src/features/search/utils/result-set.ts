import { loadWithExpiry, saveWithExpiry } from '@/utils/expiring-storage';
import { loadSearchState, resultsStorageKey, saveSearchState, type SearchState } from './search-state';

/*
 * Spec §4's stored result list, carrying the whole search with it: the record page's Previous/Next
 * walk the entire result set ("51 of 1,500"), fetching the neighbouring page of results when a record
 * is the first or last of the page it came from. Kept per state and city with the 7-day expiry.
 */

export interface StoredResults {
  /** The search the paths came from (its page is `page`). */
  search: SearchState;
  page: number;
  pageSize: number;
  /** Every result of the search, not only this page's. */
  total: number;
  /** This page's record paths, in order. */
  paths: string[];
}

export function saveResults(state: string, city: string, results: StoredResults, now = Date.now()): void {
  saveWithExpiry(resultsStorageKey(state, city), results, now);
}

const isPaths = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The stored results, if unexpired and well formed; null otherwise (then the record has no Previous/Next). */
export function loadResults(state: string, city: string, now = Date.now()): StoredResults | null {
  const v = loadWithExpiry<unknown>(resultsStorageKey(state, city), now);
  if (!v || typeof v !== 'object') return null;
  const r = v as Partial<StoredResults>;
  if (!isPaths(r.paths) || !r.search || typeof r.search !== 'object') return null;
  if (!r.search.filters || !r.search.sort || typeof r.search.query !== 'string') return null;
  const whole = (n: unknown, min: number) =>
    typeof n === 'number' && Number.isInteger(n) && n >= min ? n : null;
  const page = whole(r.page, 1);
  const pageSize = whole(r.pageSize, 1);
  const total = whole(r.total, r.paths.length);
  if (page === null || pageSize === null || total === null) return null;
  return { search: r.search, page, pageSize, total, paths: r.paths };
}

/**
 * Moving to a record on the neighbouring page of results: the stored list becomes that page, and so
 * does the stored search, so Return to search shows the page the visitor is now on.
 */
export function moveToPage(state: string, city: string, results: StoredResults): void {
  saveResults(state, city, results);
  const stored = loadSearchState(state, city);
  if (stored) saveSearchState(state, city, { ...stored, page: results.page });
}
