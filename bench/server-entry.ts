import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../apps/server/src/config.ts';
import { startServer } from '../apps/server/src/server.ts';
// The app's decorators (app.rollIndexes), declared with it.
import type {} from '../apps/server/src/app.ts';
import type { RollIndexBuild } from '../apps/server/src/features/search/roll-index/roll-index.registry.ts';
import { peakRssMb } from './lib/peak-rss.ts';

/*
 * The real server (startServer, configured from the environment like `portal serve`), started by the
 * benchmark as a child process. The only addition is this wrapper's report over the IPC channel:
 * event-loop delay and memory, measured inside the server process, so no HTTP endpoint has to expose
 * them (an unauthenticated metrics endpoint would be a leak).
 */

export type ServerMessage =
  | { type: 'ready'; url: string; startMs: number; searchIndex: SearchIndexFigure | null }
  | { type: 'stats'; eventLoop: EventLoopStats; memory: ServerMemory }
  | { type: 'reset-done' }
  | { type: 'error'; message: string };

/** The in-process search indexes the server built at start (warm-up), before anything is measured. */
export interface SearchIndexFigure {
  /** From listening until every warm-up build finished. */
  waitMs: number;
  builds: RollIndexBuild[];
  /** All indexes held, in MB. */
  totalMb: number;
  /** Server RSS once they were built. */
  rssMb: number;
}

export interface EventLoopStats {
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

export interface ServerMemory {
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  peakRssMb: number;
}

const send = (m: ServerMessage) => process.send?.(m);
const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
const started = performance.now();

// A plain timer beside the histogram: every 10 ms it notes how late it fired. The longest lateness is
// the longest stall, measured the simplest way there is (the histogram is kept for its percentiles).
const TICK_MS = 10;
let last = performance.now();
let stallMax = 0;
setInterval(() => {
  const now = performance.now();
  stallMax = Math.max(stallMax, now - last - TICK_MS);
  last = now;
}, TICK_MS).unref();

try {
  const server = await startServer(loadConfig());
  const startMs = Math.round(performance.now() - started);
  // The server answers (with SQL) while its roll indexes build; the benchmark measures the steady state.
  const registry = server.app.rollIndexes;
  let searchIndex: SearchIndexFigure | null = null;
  if (registry) {
    await registry.settled();
    searchIndex = {
      waitMs: Math.round(performance.now() - started) - startMs,
      builds: [...registry.builds],
      totalMb: mb(registry.state().bytes),
      rssMb: mb(process.memoryUsage().rss),
    };
  }
  // And for the rest of its warm-up (the county's parcel index), which /readyz waits for.
  await server.app.readiness.whenReady();
  send({ type: 'ready', url: server.url, startMs, searchIndex });
  process.on('message', (msg: { type: string }) => {
    if (msg.type === 'reset') {
      histogram.reset();
      stallMax = 0;
      send({ type: 'reset-done' });
    }
    if (msg.type === 'stats') {
      const m = process.memoryUsage();
      send({
        type: 'stats',
        eventLoop: {
          p50: histogram.percentile(50) / 1e6,
          p99: histogram.percentile(99) / 1e6,
          max: Math.max(histogram.max / 1e6, stallMax),
          mean: histogram.mean / 1e6,
        },
        memory: {
          rssMb: mb(m.rss),
          heapUsedMb: mb(m.heapUsed),
          externalMb: mb(m.external),
          arrayBuffersMb: mb(m.arrayBuffers),
          peakRssMb: peakRssMb(),
        },
      });
    }
    if (msg.type === 'stop') {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }
  });
  process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
} catch (err) {
  send({ type: 'error', message: (err as Error).message });
  process.exit(1);
}
