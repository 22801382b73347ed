import type { AbuttersResponse } from '@opp/contracts';
import type { LabelChoices } from '@opp/contracts/abutters-notice';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const abuttersPath = (clientId: number, account: string) =>
  `/api/abutters/${clientId}/${encodeURIComponent(account)}`;

/** GET /api/abutters/{clientId}/{account}?distance=FEET: the parcels within `feet` of the account's. */
export const getAbutters = (clientId: number, account: string, feet: number, signal?: AbortSignal) =>
  api<AbuttersResponse>('GET', abuttersPath(clientId, account), { query: { distance: feet }, signal });

export const getAbuttersQueryOptions = (clientId: number, account: string, feet: number) =>
  queryOptions({
    queryKey: ['abutters', clientId, account, feet],
    queryFn: ({ signal }) => getAbutters(clientId, account, feet, signal),
    staleTime: 60_000,
    retry: false,
    // The answer for the last distance or box stays on screen while the next one comes (react-query's
    // keepPreviousData, written out: importing it would put it in every page's framework chunk).
    placeholderData: <T>(previous: T) => previous,
  });

export const useAbutters = (clientId: number, account: string, feet: number, enabled = true) =>
  useQuery({ ...getAbuttersQueryOptions(clientId, account, feet), enabled });

/**
 * GET …/abutters.csv and …/abutters.pdf (Avery 5160 mailing labels): plain links, the browser
 * downloads them.
 */
export const abuttersCsvUrl = (clientId: number, account: string, feet: number) =>
  `${abuttersPath(clientId, account)}/abutters.csv?distance=${feet}`;

export function abuttersLabelsUrl(
  clientId: number,
  account: string,
  feet: number,
  choices?: Partial<LabelChoices>,
): string {
  const query = new URLSearchParams({ distance: String(feet) });
  for (const [name, on] of Object.entries(choices ?? {})) if (on) query.set(name, '1');
  return `${abuttersPath(clientId, account)}/abutters.pdf?${query}`;
}
