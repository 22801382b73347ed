import { isRunInProgress, type ImportRunDto } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providerKeys } from './query-keys';

/** How often a running import's progress is read. */
export const RUN_POLL_MS = 1_000;

/** GET /api/rolls/{clientId}: the client's publishing history, newest first. */
export const getRollRuns = (clientId: number, signal?: AbortSignal) =>
  api<ImportRunDto[]>('GET', `/api/rolls/${clientId}`, { signal });

/** GET /api/rolls/{clientId}/runs/{runId}: one run's status and counts. */
export const getRollRun = (clientId: number, runId: number, signal?: AbortSignal) =>
  api<ImportRunDto>('GET', `/api/rolls/${clientId}/runs/${runId}`, { signal });

export const useRollRuns = (clientId: number) =>
  useQuery(
    queryOptions({
      queryKey: providerKeys.rollRuns(clientId),
      queryFn: ({ signal }) => getRollRuns(clientId, signal),
      staleTime: 0,
    }),
  );

/** Polls the run until it has finished (the import runs on the server; this only watches it). */
export const useRollRun = (clientId: number, runId: number | null) =>
  useQuery(
    queryOptions({
      queryKey: providerKeys.rollRun(clientId, runId ?? 0),
      queryFn: ({ signal }) => getRollRun(clientId, runId!, signal),
      enabled: runId !== null,
      staleTime: 0,
      refetchInterval: (query) =>
        query.state.data && !isRunInProgress(query.state.data.Status) ? false : RUN_POLL_MS,
    }),
  );
