import type { ComparablesResponse } from '@opp/contracts';
import type { ComparableSize } from '@opp/contracts/comparable-criteria';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** What the visitor asks comparables by (the API's query, comparable-criteria.ts). */
export interface ComparableCriteria {
  distance: number;
  years: number;
  size: ComparableSize;
  allSales: boolean;
}

const comparablesPath = (clientId: number, account: string) =>
  `/api/comparables/${clientId}/${encodeURIComponent(account)}`;

const queryOf = (c: ComparableCriteria) => ({
  distance: String(c.distance),
  years: String(c.years),
  size: c.size,
  allSales: c.allSales ? '1' : '0',
});

/** GET /api/comparables/{clientId}/{account}: recent sales of similar parcels near the account's. */
export const getComparables = (
  clientId: number,
  account: string,
  criteria: ComparableCriteria,
  signal?: AbortSignal,
) =>
  api<ComparablesResponse>('GET', comparablesPath(clientId, account), { query: queryOf(criteria), signal });

export const getComparablesQueryOptions = (clientId: number, account: string, criteria: ComparableCriteria) =>
  queryOptions({
    queryKey: ['comparables', clientId, account, criteria],
    queryFn: ({ signal }) => getComparables(clientId, account, criteria, signal),
    staleTime: 60_000,
    retry: false,
    // The last answer stays on screen while the next criteria's comes (keepPreviousData, written out).
    placeholderData: <T>(previous: T) => previous,
  });

export const useComparables = (
  clientId: number,
  account: string,
  criteria: ComparableCriteria,
  enabled = true,
) => useQuery({ ...getComparablesQueryOptions(clientId, account, criteria), enabled });

/** GET …/comparables.csv: a plain link, the browser downloads it. */
export const comparablesCsvUrl = (clientId: number, account: string, criteria: ComparableCriteria) =>
  `${comparablesPath(clientId, account)}/comparables.csv?${new URLSearchParams(queryOf(criteria)).toString()}`;
