import type { HttpClient, HttpResult } from './http.ts';
import { sleep, summarize, type LatencySummary } from './stats.ts';

/*
 * Closed-loop load: `concurrency` virtual users, each sending its next request as soon as the previous
 * answer arrives, for a fixed time. Requests per second at a fixed concurrency is what a busy town
 * meeting night looks like to the server.
 */

export interface LoadFigure {
  seconds: number;
  concurrency: number;
  requests: number;
  requestsPerSecond: number;
  errors: number;
  /** The first few error descriptions, to tell 429s from 500s from timeouts. */
  errorSamples: string[];
  latency: LatencySummary;
}

export type RequestFn = (client: HttpClient, i: number) => Promise<HttpResult>;

export async function runLoad(
  client: HttpClient,
  send: RequestFn,
  options: { concurrency: number; seconds: number },
): Promise<LoadFigure> {
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  let counter = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const user = async () => {
    while (performance.now() < deadline) {
      const i = counter++;
      const t = performance.now();
      try {
        const r = await send(client, i);
        latencies.push(performance.now() - t);
        if (r.status >= 400) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(`HTTP ${r.status}: ${r.body.slice(0, 120)}`);
        }
      } catch (err) {
        errors++;
        latencies.push(performance.now() - t);
        if (errorSamples.length < 5) errorSamples.push((err as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, user));
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds: Math.round(seconds * 10) / 10,
    concurrency: options.concurrency,
    requests: latencies.length,
    requestsPerSecond: Math.round(latencies.length / seconds),
    errors,
    errorSamples,
    latency: summarize(latencies),
  };
}

/**
 * Times /healthz once every `intervalMs` until `until` settles: how long a visitor waits for the
 * cheapest possible answer while something heavy runs. A server whose event loop is blocked by a
 * query shows it here as a long tail.
 */
export async function probeResponsiveness<T>(
  client: HttpClient,
  until: Promise<T>,
  intervalMs = 20,
): Promise<{ result: T; probe: LatencySummary }> {
  let done = false;
  const samples: number[] = [];
  const watched = until.finally(() => {
    done = true;
  });
  const loop = (async () => {
    while (!done) {
      const t = performance.now();
      try {
        await client.get('/healthz');
      } catch {
        // A failed probe still took this long to fail.
      }
      samples.push(performance.now() - t);
      await sleep(intervalMs);
    }
  })();
  const result = await watched;
  await loop;
  return { result, probe: summarize(samples) };
}
