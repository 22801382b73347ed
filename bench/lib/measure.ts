import type { Database } from '../../apps/server/src/db/database.ts';
import { naiveExport, naiveRecord, naiveSearch, naiveSuggest, timeQuery } from './baseline.ts';
import type { HttpClient, HttpResult } from './http.ts';
import type { ShapeResult } from './results.ts';
import {
  exportPath,
  recordPath,
  searchRequest,
  suggestPath,
  type SearchParams,
  type Shape,
} from './shapes.ts';
import { summarize } from './stats.ts';

export interface Budget {
  maxSamples: number;
  maxSeconds: number;
  minSamples: number;
  warmup: number;
}

export interface Target {
  clientId: number;
  city: string;
  state: string;
}

/** Sends variant i of a shape over HTTP. */
export function sendShape(http: HttpClient, shape: Shape, t: Target, i: number): Promise<HttpResult> {
  const v = shape.variants[i % shape.variants.length]!;
  switch (shape.kind) {
    case 'search': {
      const { path, body } = searchRequest(t.clientId, v as SearchParams);
      return http.post(path, body);
    }
    case 'record':
      return http.get(recordPath(v as string, t.city, t.state));
    case 'suggest':
      return http.get(suggestPath(t.clientId, v as string));
    case 'export':
      return http.get(exportPath(t.clientId), { timeoutMs: 300_000 });
  }
}

async function sample(
  run: (i: number) => Promise<number>,
  budget: Budget,
): Promise<{ samples: number[]; timedOut: boolean; firstMs: number }> {
  let firstMs = NaN;
  for (let i = 0; i < budget.warmup; i++) {
    const ms = await run(i);
    if (i === 0) firstMs = ms;
  }
  const samples: number[] = [];
  const started = performance.now();
  let i = budget.warmup;
  while (samples.length < budget.maxSamples) {
    samples.push(await run(i++));
    const elapsed = (performance.now() - started) / 1000;
    if (samples.length >= budget.minSamples && elapsed > budget.maxSeconds) break;
  }
  if (Number.isNaN(firstMs)) firstMs = samples[0] ?? NaN;
  return { samples, timedOut: samples.length < budget.minSamples, firstMs };
}

/** The page count of a search, for the last-page shape. */
export async function lastPageOf(http: HttpClient, t: Target, params: SearchParams): Promise<number> {
  const { path, body } = searchRequest(t.clientId, { ...params, page: 1 });
  const r = await http.post(path, body);
  if (r.status !== 200) throw new Error(`search failed: HTTP ${r.status} ${r.body.slice(0, 200)}`);
  return Math.max(1, (JSON.parse(r.body) as { Pages: number }).Pages);
}

export async function measureShape(
  http: HttpClient,
  shape: Shape,
  t: Target,
  budget: Budget,
  log: (s: string) => void,
): Promise<ShapeResult> {
  let errors = 0;
  let errorSample: string | undefined;
  let first: HttpResult | null = null;
  const exportBudget: Budget = {
    ...budget,
    maxSamples: Math.min(budget.maxSamples, 3),
    warmup: 1,
    minSamples: 2,
  };
  const { samples, firstMs } = await sample(
    async (i) => {
      const r = await sendShape(http, shape, t, i);
      first ??= r;
      if (r.status !== 200) {
        errors++;
        errorSample ??= `HTTP ${r.status}: ${r.body.slice(0, 160)}`;
      }
      return r.ms;
    },
    shape.kind === 'export' ? exportBudget : budget,
  );
  const result: ShapeResult = {
    id: shape.id,
    label: shape.label,
    kind: shape.kind,
    targetMs: shape.targetMs,
    latency: summarize(samples),
    firstMs: Math.round(firstMs * 100) / 100,
    errors,
    ...(errorSample ? { errorSample } : {}),
  };
  const r = first as HttpResult | null;
  if (r?.status === 200 && shape.kind === 'search') {
    const body = JSON.parse(r.body) as { TotalRecords: number; TotalIsEstimate?: boolean };
    result.totalRecords = body.TotalRecords;
    result.totalIsEstimate = body.TotalIsEstimate ?? false;
  }
  if (r?.status === 200 && shape.kind === 'export')
    result.rows = Math.max(0, r.body.split('\n').filter(Boolean).length - 1);
  log(
    `    ${shape.label.padEnd(40)} p50 ${result.latency.p50.toFixed(1).padStart(8)}  p95 ${result.latency.p95
      .toFixed(1)
      .padStart(
        8,
      )}  n ${String(result.latency.n).padStart(3)}${errors ? `  ${errors} errors: ${errorSample}` : ''}`,
  );
  return result;
}

/** The naive baseline of one shape, straight against the database. */
export async function measureBaseline(
  database: Database,
  shape: Shape,
  t: Target,
  budget: Budget,
): Promise<{ latency: ReturnType<typeof summarize>; timedOut: boolean; total: number | null }> {
  let total: number | null = null;
  const { samples, timedOut } = await sample(async (i) => {
    const v = shape.variants[i % shape.variants.length]!;
    switch (shape.kind) {
      case 'search': {
        const q = naiveSearch(t.clientId, v as SearchParams);
        const started = performance.now();
        const rows = await database.db.execute(q);
        const ms = performance.now() - started;
        if (total === null) {
          const list = (rows as unknown as { rows: Array<{ total: string | number }> }).rows;
          total = list.length ? Number(list[0]!.total) : 0;
        }
        return ms;
      }
      case 'record':
        return (await timeQuery(database, naiveRecord(v as string, t.city, t.state))).ms;
      case 'suggest':
        return (await timeQuery(database, naiveSuggest(t.clientId, v as string))).ms;
      case 'export':
        return (await timeQuery(database, naiveExport(t.clientId, 50_000))).ms;
    }
  }, budget);
  return { latency: summarize(samples), timedOut, total };
}
