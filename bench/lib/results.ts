import type { ImportFigure } from '../import-worker.ts';
import type { EventLoopStats, SearchIndexFigure } from '../server-entry.ts';
import type { LoadFigure } from './load.ts';
import type { ShapeKind } from './shapes.ts';
import type { LatencySummary } from './stats.ts';
import type { LighthouseFigure, WebBundleFigures } from './web.ts';

/** Everything one run measured: written as bench/results/latest.json (quick runs: quick-latest.json). */
export interface BenchResults {
  mode: 'full' | 'quick';
  startedAt: string;
  durationSeconds: number;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    loadAverageAtStart: number[];
    /** One-minute load average sampled every 5 s through the run: other work on the machine. */
    loadAverageDuring: { min: number; mean: number; max: number };
    /**
     * Milliseconds to count a range in a 1,000,000-element Float32Array (median of 15), at start and end:
     * about 1 ms on an idle core. A much larger figure means every latency below is inflated by contention.
     */
    calibrationMs: { start: number; end: number };
    /**
     * Milliseconds for 200 one-millisecond timers in a row, at start and end: about 250 on an idle
     * machine. A much larger figure means the machine freezes now and then, and latencies measure that.
     * (Absent from older results.)
     */
    timersMs?: { start: number; end: number };
    /**
     * Each engine's `/healthz` requests per second at concurrency 32 (the throughput floor), kept with a
     * quick baseline: the machine's capacity for HTTP when it was recorded (see httpSlowdown).
     */
    floorRps?: Partial<Record<string, number>>;
  };
  dataset: { key: string; totalParcels: number; bigClientParcels: number; towns: number };
  engines: EngineResults[];
  web: WebResults | null;
  checks: Check[];
  notes: string[];
}

export interface WebResults {
  bundles: WebBundleFigures | null;
  lighthouse: LighthouseFigure[] | null;
  error?: string;
}

export interface ShapeResult {
  id: string;
  label: string;
  kind: ShapeKind;
  targetMs: number;
  latency: LatencySummary;
  /** The first request of the shape (before any warm-up): what a visitor meets with cold caches. */
  firstMs: number;
  errors: number;
  errorSample?: string;
  /** TotalRecords of the first variant (search shapes), to show how big the result was. */
  totalRecords?: number;
  totalIsEstimate?: boolean;
  /** The exact count (the naive baseline's count(*) over ()) where it means the same rows. */
  exactTotal?: number;
  /** Export: rows received. */
  rows?: number;
  baseline?: { latency: LatencySummary; timedOut: boolean } | null;
}

export interface ParcelFigures {
  shapes: number;
  /** Seconds to import the layer, this run (null: the data set already had it). */
  importSeconds: number | null;
  /** The in-memory spatial index of the layer (shapes and trees; the roll's records not counted). */
  indexMb: number;
  indexBuildSeconds: number;
  /** The first abutters request, which builds the server's index. */
  firstRequestMs: number;
  abutters: LatencySummary;
  bbox: LatencySummary;
  /** Comparable sales of random lots at the default criteria (issue 49); the first builds the sale facts. */
  comparables?: LatencySummary;
  comparablesFirstMs?: number;
  errors: number;
}

/** Cambridge, MA's real roll and parcel layer, in a database of their own (bench/lib/cambridge.ts). */
export interface CambridgeFigures {
  /** As `portal import` printed it: 27,528 records through docs/examples/cambridge-fy2014.json. */
  rollImportSeconds: number;
  /** As `portal parcels import` printed it: 13,116 polygons, joined by map/lot. */
  layerImportSeconds: number;
  /** The first request, which loads the layer into the server's index. */
  firstRequestMs: number;
  abutters: LatencySummary;
  bbox: LatencySummary;
  /** Comparable sales at the default criteria (issue 49). */
  comparables?: LatencySummary;
  errors: number;
}

export interface EngineResults {
  engine: 'pglite' | 'postgres';
  skipped?: string;
  data?: {
    reused: boolean;
    builtAt: string;
    buildSeconds: number;
    /** The county roll (1,000,000 parcels; quick: 40,000) imported into the empty database at build time. */
    bigImport: ImportFigure;
    /** True when the importer's code changed since the build: re-run with --rebuild for a fresh figure. */
    bigImportStale: boolean;
  };
  /** A fresh import of the first 100,000 records (quick: not run) into an empty database, this run. */
  probeImport?: ImportFigure | null;
  serverStartMs?: number;
  /** The in-process search indexes built at start, before measuring (null: off). */
  searchIndex?: SearchIndexFigure | null;
  shapes: ShapeResult[];
  throughput?: {
    floor: LoadFigure;
    reads: LoadFigure;
    mixed: LoadFigure;
    /** Measured inside the server (monitorEventLoopDelay) over the mixed run. */
    eventLoopUnderLoad: EventLoopStats;
    /** /healthz timed every 20 ms while a 50,000-row export runs. */
    healthzDuringExport: LatencySummary;
    eventLoopDuringExport: EventLoopStats;
  };
  memory?: { afterStartMb: number; loadedMb: number; peakMb: number };
  /** The county's parcel layer (issue 40): its index and the map and abutters calls. */
  parcels?: ParcelFigures;
  /** Cambridge's figures, or why they were not measured (no ../shared, quick run). */
  cambridge?: CambridgeFigures | { skipped: string };
  /** Warnings and errors in the server's log during the run (should be none). */
  serverLogProblems?: { count: number; samples: string[] };
  error?: string;
}

export interface Check {
  scope: string;
  name: string;
  value: number | string | null;
  target: string;
  pass: boolean | null;
}
