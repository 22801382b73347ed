import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../apps/server/src/db/database.ts';
import {
  engineTarget,
  ensureEnginesData,
  ensureJsonl,
  importerHash,
  migrationDrift,
  PG_ADMIN_URL,
  rowFormatHash,
  postgresReachable,
  probeImport,
  resolveDataset,
  type Dataset,
  type EngineData,
} from './lib/dataset.ts';
import { HttpClient } from './lib/http.ts';
import { probeResponsiveness, runLoad } from './lib/load.ts';
import { measureBaseline, measureShape, sendShape, type Budget, type Target } from './lib/measure.ts';
import {
  computeChecks,
  engineSummary,
  engineTable,
  compareQuick,
  floorsOf,
  httpSlowdown,
  importCpu,
  importTarget,
  figuresOf,
  frozenMachine,
  markdown,
  webTable,
  type Figures,
} from './lib/report.ts';
import type { BenchResults, EngineResults, ParcelFigures, WebResults } from './lib/results.ts';
import { cambridgeMissing, measureCambridge } from './lib/cambridge.ts';
import { ensureCountyLayer, measureLayerIndex, measureParcelQueries } from './lib/parcels.ts';
import { clientsRepository } from '../apps/server/src/features/clients/clients.repository.ts';
import { benchServerEnv, ROOT, startBenchServer, type BenchServer } from './lib/server-process.ts';
import { buildShapes, queryTerms, type SearchParams, type Shape } from './lib/shapes.ts';
import { analyzeBundles, buildWeb, runLighthouse, runWebOnly, WEB_DIST } from './lib/web.ts';

const USAGE = `Usage: npm run bench -- [options]

  --quick              50,000 parcels, short runs; compares with bench/results/quick-baseline.json and
                       fails only when a figure is more than 3x worse than recorded (the CI variant)
  --engine <name>      pglite, postgres or both (default both)
  --rebuild            rebuild the data set even when the cached one matches
  --no-baseline        skip the naive-SQL baseline
  --no-web             skip the web build, bundle sizes and Lighthouse
  --lighthouse         run Lighthouse in a quick run too (a full run always does)
  --web-only           only the web build, bundle sizes and Lighthouse, on the demo towns
  --update-baseline    write this quick run's figures as bench/results/quick-baseline.json
  --build-only         build (or resume building) the data set and stop
  --help

Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the
PostgreSQL server; the benchmark creates and reuses a database opp_bench_<full|quick> there.`;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    engine: { type: 'string', default: 'both' },
    rebuild: { type: 'boolean', default: false },
    'no-baseline': { type: 'boolean', default: false },
    'no-web': { type: 'boolean', default: false },
    lighthouse: { type: 'boolean', default: false },
    'web-only': { type: 'boolean', default: false },
    'update-baseline': { type: 'boolean', default: false },
    'build-only': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!['pglite', 'postgres', 'both'].includes(args.engine!)) {
  console.error(`--engine must be pglite, postgres or both\n\n${USAGE}`);
  process.exit(2);
}
if (args['web-only']) process.exit(await runWebOnly(console.log));

const mode = args.quick ? 'quick' : 'full';
const quick = mode === 'quick';
const engines = (args.engine === 'both' ? ['pglite', 'postgres'] : [args.engine]) as Array<
  'pglite' | 'postgres'
>;
const RESULTS_DIR = path.join(ROOT, 'bench/results');
const QUICK_BASELINE = path.join(RESULTS_DIR, 'quick-baseline.json');

const SHAPE_BUDGET: Budget = quick
  ? { maxSamples: 25, maxSeconds: 0.5, minSamples: 5, warmup: 1 }
  : { maxSamples: 200, maxSeconds: 3, minSamples: 5, warmup: 1 };
const NAIVE_BUDGET: Budget = quick
  ? { maxSamples: 5, maxSeconds: 0.25, minSamples: 1, warmup: 0 }
  : { maxSamples: 5, maxSeconds: 1.5, minSamples: 1, warmup: 0 };
const LOAD_SECONDS = quick ? 3 : 30;
const FLOOR_SECONDS = quick ? 2 : 10;
const CONCURRENCY = 32;

const startedAt = new Date();
const t0 = performance.now();
const log = (s: string) => console.log(s);
const notes: string[] = [];

const loadAtStart = os.loadavg().map((l) => Math.round(l * 100) / 100);
const loadSamples: number[] = [];
const loadTimer = setInterval(() => loadSamples.push(os.loadavg()[0]!), 5000);
loadTimer.unref();

/** A fixed CPU task, timed: how much of a core this process gets right now. */
function calibrate(): number {
  const n = 1_000_000;
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = (i * 7919) % 1_000_000;
  const count = (lo: number, hi: number) => {
    let c = 0;
    for (let i = 0; i < n; i++) {
      const v = a[i]!;
      if (v >= lo && v <= hi) c++;
    }
    return c;
  };
  const times: number[] = [];
  for (let k = 0; k < 20; k++) {
    const t = performance.now();
    count(100_000, 300_000);
    if (k >= 5) times.push(performance.now() - t);
  }
  times.sort((x, y) => x - y);
  return Math.round(times[Math.floor(times.length / 2)]! * 100) / 100;
}
const calibrationAtStart = calibrate();

/**
 * Milliseconds for 200 one-millisecond timers in a row: about 250 on an idle machine. The calibration
 * above times a busy core; this times waking up, which every request does several times (client,
 * server, database thread). Some machines run a busy loop at nearly full speed yet freeze for half a
 * second every second or two: there every latency measures the freezes.
 */
async function timerProbe(): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < 200; i++) await new Promise((r) => setTimeout(r, 1));
  return Math.round(performance.now() - started);
}
const timersAtStart = await timerProbe();

function machine(timersAtEnd: number): BenchResults['machine'] {
  const during = loadSamples.length ? loadSamples : [os.loadavg()[0]!];
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    loadAverageAtStart: loadAtStart,
    loadAverageDuring: {
      min: round(Math.min(...during)),
      mean: round(during.reduce((a, b) => a + b, 0) / during.length),
      max: round(Math.max(...during)),
    },
    calibrationMs: { start: calibrationAtStart, end: calibrate() },
    timersMs: { start: timersAtStart, end: timersAtEnd },
  };
}

function mixedRequest(shapes: Shape[], target: Target) {
  const record = shapes.find((s) => s.kind === 'record')!;
  const suggest = shapes.find((s) => s.kind === 'suggest')!;
  const searches = shapes.filter((s) => s.kind === 'search');
  // Half record reads, four in ten searches of every shape, one in ten type-ahead calls.
  return (http: HttpClient, i: number) => {
    const slot = i % 10;
    if (slot < 5) return sendShape(http, record, target, i);
    if (slot === 9) return sendShape(http, suggest, target, i);
    const shape = searches[Math.floor(i / 10) % searches.length]!;
    return sendShape(http, shape, target, i);
  };
}

async function measureEngine(
  ds: Dataset,
  engine: 'pglite' | 'postgres',
  data: EngineData | undefined,
  shapes: Shape[],
  withLighthouse: boolean,
): Promise<{ result: EngineResults; lighthouse: WebResults['lighthouse'] }> {
  const result: EngineResults = { engine, shapes: [] };
  let lighthouse: WebResults['lighthouse'] = null;
  log(`\n== ${engine === 'pglite' ? 'embedded engine (PGlite)' : 'PostgreSQL server'} ==`);
  if (!data) {
    result.skipped = `PostgreSQL is not reachable at ${PG_ADMIN_URL}`;
    log(`  skipped: ${result.skipped}`);
    return { result, lighthouse };
  }
  const { build, reused } = data;
  result.data = {
    reused,
    builtAt: build.builtAt,
    buildSeconds: build.buildSeconds,
    bigImport: build.result.big,
    bigImportStale: reused && build.importerHash !== importerHash(),
  };
  const drift = reused ? migrationDrift(build) : { added: [], edited: [] };
  if (drift.added.length)
    notes.push(
      `${engine}: the data set predates ${drift.added.join(', ')} (which touch the properties table); the server applied ` +
        `them at start, but rows keep the storage they were written with. Run with --rebuild for representative rows.`,
    );
  if (drift.edited.length) {
    const msg =
      `${engine}: ${drift.edited.join(', ')} changed after the data set was built; the server does not re-apply ` +
      `a migration, so this data set's schema is not the current one. Run with --rebuild.`;
    notes.push(msg);
    log(`  WARNING: ${msg}`);
  }
  if (reused && build.rowFormatHash !== rowFormatHash())
    notes.push(
      `${engine}: the code that builds stored rows (property-row.ts, search-text.ts, property.ts) changed since ` +
        `the data set was built (${build.builtAt}); figures are for the older rows. Run with --rebuild to refresh.`,
    );
  if (reused && !quick) {
    log(
      `  importing ${ds.probeRecords.toLocaleString('en-US')} records into an empty database (import figure for this run)`,
    );
    result.probeImport = (await probeImport(ds, engine)).big;
    log(
      `    ${result.probeImport.recordsPerSecond.toLocaleString('en-US')} records/s, peak ${result.probeImport.peakRssMb} MB${importCpu(result.probeImport, importTarget(engine))}`,
    );
  }

  const target: Target = { clientId: build.clientIds.big, city: ds.spec.big.city, state: ds.spec.big.state };
  const lastPage = Math.ceil(ds.spec.big.parcels / 50);
  for (const s of shapes)
    if (s.id === 'last-page') s.variants = [{ query: '', page: lastPage } satisfies SearchParams];

  // The naive baseline reads the database directly; PGlite's folder admits one process, so it runs
  // before the server starts.
  const baselines = new Map<
    string,
    NonNullable<EngineResults['shapes'][number]['baseline']> & { total: number | null }
  >();
  if (!args['no-baseline']) {
    log('  naive baseline (ILIKE, count(*) over (), OFFSET), straight against the database');
    const t = engineTarget(ds, engine);
    const database =
      t.engine === 'pglite'
        ? await openDatabase({ engine: 'pglite', dataDir: t.dataDir })
        : await openDatabase({ engine: 'postgres', url: t.url, poolSize: 2 });
    try {
      for (const s of shapes) {
        const b = await measureBaseline(database, s, target, NAIVE_BUDGET);
        baselines.set(s.id, b);
        log(`    ${s.label.padEnd(40)} p50 ${b.latency.p50.toFixed(1).padStart(8)}  n ${b.latency.n}`);
      }
    } finally {
      await database.close();
    }
  }

  // The county's parcel layer: imported once (PGlite's folder admits one process: before the server).
  let parcels: Omit<
    ParcelFigures,
    'abutters' | 'bbox' | 'comparables' | 'comparablesFirstMs' | 'errors' | 'firstRequestMs'
  > | null = null;
  {
    const pt = engineTarget(ds, engine);
    const database =
      pt.engine === 'pglite'
        ? await openDatabase({ engine: 'pglite', dataDir: pt.dataDir })
        : await openDatabase({ engine: 'postgres', url: pt.url, poolSize: 2 });
    try {
      const county = await clientsRepository.findById(database.db, target.clientId);
      if (county?.activeRollId != null) {
        log('  parcel layer of the county (contiguous lots)');
        const importSeconds = await ensureCountyLayer(
          database.db,
          county.id,
          county.activeRollId,
          ds.spec.seed,
          ds.spec.big,
        );
        if (importSeconds !== null) log(`    imported in ${importSeconds} s`);
        const index = await measureLayerIndex(database.db, county.id, county.activeRollId);
        parcels = { importSeconds, ...index };
        log(
          `    spatial index of ${index.shapes.toLocaleString('en-US')} lots: ${index.indexMb} MB, built in ${index.indexBuildSeconds} s`,
        );
      }
    } finally {
      await database.close();
    }
  }

  const t = engineTarget(ds, engine);
  const env = benchServerEnv({
    ...(t.engine === 'pglite' ? { DATA_DIR: t.dataDir } : { DATABASE_URL: t.url }),
    WEB_DIST: fs.existsSync(path.join(WEB_DIST, 'index.html')) ? WEB_DIST : '',
  });
  log('  starting the server');
  let server: BenchServer | null = null;
  try {
    server = await startBenchServer(env);
    result.serverStartMs = server.startMs;
    result.searchIndex = server.searchIndex;
    const api = new HttpClient(server.url, 64);
    const probe = new HttpClient(server.url, 4);
    const afterStart = (await server.stats()).memory;
    const lookup = await api.get(
      `/api/client/${encodeURIComponent(target.state)}/${encodeURIComponent(target.city)}`,
    );
    if (lookup.status === 200) {
      const id = (JSON.parse(lookup.body) as { ClientID?: number }).ClientID;
      if (id) target.clientId = id;
    }
    log(
      `  query shapes on client ${target.clientId} (${ds.spec.big.parcels.toLocaleString('en-US')} parcels)`,
    );
    for (const s of shapes) {
      const r = await measureShape(api, s, target, SHAPE_BUDGET, log);
      const b = baselines.get(s.id);
      if (b) r.baseline = { latency: b.latency, timedOut: b.timedOut };
      // Where ours and the naive SQL mean the same rows (no text), their totals must agree.
      // Where ours and the naive SQL mean the same rows (no text: filters and orders only), the naive
      // count(*) is the exact total to hold TotalRecords against.
      const textual = s.variants.some((v) => typeof v === 'object' && v.query !== '');
      if (b?.total != null && r.totalRecords !== undefined && !textual) r.exactTotal = b.total;
      result.shapes.push(r);
    }

    if (parcels) {
      const q = await measureParcelQueries(api, target.clientId, ds.spec.seed, ds.spec.big);
      result.parcels = { ...parcels, ...q };
      log(
        `    abutters at 300 ft p95 ${q.abutters.p95} ms (first ${q.firstRequestMs} ms); ` +
          `a few blocks' box p95 ${q.bbox.p95} ms; comparable sales p95 ${q.comparables?.p95} ms ` +
          `(first ${q.comparablesFirstMs} ms); ${q.errors} errors`,
      );
    }

    log(`  throughput at concurrency ${CONCURRENCY}`);
    const floor = await runLoad(api, (h) => h.get('/healthz'), {
      concurrency: CONCURRENCY,
      seconds: FLOOR_SECONDS,
    });
    log(
      `    /healthz          ${floor.requestsPerSecond} req/s, p95 ${floor.latency.p95} ms, ${floor.errors} errors`,
    );
    const recordShape = shapes.find((s) => s.kind === 'record')!;
    const reads = await runLoad(api, (h, i) => sendShape(h, recordShape, target, i), {
      concurrency: CONCURRENCY,
      seconds: LOAD_SECONDS,
    });
    log(
      `    record reads      ${reads.requestsPerSecond} req/s, p95 ${reads.latency.p95} ms, ${reads.errors} errors`,
    );
    await server.resetEventLoop();
    const mixed = await runLoad(api, mixedRequest(shapes, target), {
      concurrency: CONCURRENCY,
      seconds: LOAD_SECONDS,
    });
    const eventLoopUnderLoad = (await server.stats()).eventLoop;
    log(
      `    mixed             ${mixed.requestsPerSecond} req/s, p95 ${mixed.latency.p95} ms, ${mixed.errors} errors; event loop max ${eventLoopUnderLoad.max.toFixed(0)} ms`,
    );
    await server.resetEventLoop();
    const exportShape = shapes.find((s) => s.kind === 'export')!;
    const during = await probeResponsiveness(probe, sendShape(api, exportShape, target, 0));
    const eventLoopDuringExport = (await server.stats()).eventLoop;
    log(
      `    /healthz during an export: p99 ${during.probe.p99} ms, max ${during.probe.max} ms; event loop max ${eventLoopDuringExport.max.toFixed(0)} ms`,
    );
    result.throughput = {
      floor,
      reads,
      mixed,
      eventLoopUnderLoad,
      healthzDuringExport: during.probe,
      eventLoopDuringExport,
    };
    result.serverLogProblems = server.logProblems();
    if (result.serverLogProblems.count)
      log(
        `  WARNING: the server logged ${result.serverLogProblems.count} warnings/errors, e.g. ${result.serverLogProblems.samples[0]}`,
      );
    const loaded = (await server.stats()).memory;
    result.memory = { afterStartMb: afterStart.rssMb, loadedMb: loaded.rssMb, peakMb: loaded.peakRssMb };
    log(`  server memory: ${loaded.rssMb} MB (peak ${loaded.peakRssMb} MB)`);

    if (withLighthouse) {
      if (!env.WEB_DIST) throw new Error('no web build to audit');
      const base = server.url;
      const town = `${encodeURIComponent(target.state)}/${encodeURIComponent(target.city)}`;
      const pages = [
        { page: 'home', url: `${base}/` },
        { page: 'results', url: `${base}/${town}/search` },
        {
          page: 'record',
          url: `${base}/${town}/${encodeURIComponent(String(Math.ceil(ds.spec.big.parcels / 3)))}`,
        },
      ];
      log('  Lighthouse (mobile) on home, results and record pages');
      try {
        lighthouse = await runLighthouse(pages);
        for (const l of lighthouse)
          log(
            `    ${l.page.padEnd(8)} perf ${l.performance}  a11y ${l.accessibility}  bp ${l.bestPractices}  LCP ${l.lcpMs} ms  CLS ${l.cls}  TBT ${l.tbtMs} ms`,
          );
      } catch (err) {
        notes.push(`Lighthouse failed: ${(err as Error).message}`);
        log(`    Lighthouse failed: ${(err as Error).message}`);
      }
    }
    api.close();
    probe.close();
  } catch (err) {
    result.error = (err as Error).message;
    log(`  FAILED: ${result.error}`);
  } finally {
    await server?.stop();
  }

  // Cambridge's real layer, after the county's server has stopped (one server measured at a time).
  if (!quick) {
    log("  Cambridge, MA's real roll and parcel layer, in a database of their own");
    const missing = cambridgeMissing();
    if (missing) {
      result.cambridge = { skipped: missing };
      log(`    skipped: ${missing}`);
    } else
      try {
        result.cambridge = await measureCambridge(engine, PG_ADMIN_URL, log);
      } catch (err) {
        result.error = `Cambridge: ${(err as Error).message}`;
        log(`    FAILED: ${result.error}`);
      }
  }
  return { result, lighthouse };
}

async function main(): Promise<number> {
  const ds = resolveDataset(mode);
  log(
    `Open Property Portal benchmark (${mode}): ${ds.totalParcels.toLocaleString('en-US')} parcels, ` +
      `one client of ${ds.spec.big.parcels.toLocaleString('en-US')} and ${ds.spec.towns.length} towns; ` +
      `load average ${loadAtStart.join(' ')} on ${os.cpus().length} cores, ` +
      `calibration ${calibrationAtStart} ms (about 1 ms on an idle core), ` +
      `200 timers of 1 ms in ${timersAtStart} ms (about 250 on an idle machine)`,
  );
  await ensureJsonl(ds, log);
  const reachable: typeof engines = [];
  for (const engine of engines) {
    if (engine === 'pglite' || (await postgresReachable())) reachable.push(engine);
    else if (args['build-only']) throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN_URL}`);
  }
  log('\n== data set ==');
  const data = await ensureEnginesData(ds, reachable, { rebuild: args.rebuild!, log });
  if (args['build-only']) return 0;

  let web: WebResults | null = null;
  if (!args['no-web']) {
    log('\n== web ==');
    try {
      const seconds = buildWeb(log);
      web = { bundles: analyzeBundles(seconds), lighthouse: null };
      for (const b of web.bundles!.routes)
        log(
          `  ${b.route.padEnd(9)} initial JS ${b.jsGzipKb} KB gzip (${b.files.length} files)${b.adminFiles.length ? ` ADMIN: ${b.adminFiles.join(', ')}` : ''}`,
        );
    } catch (err) {
      web = { bundles: null, lighthouse: null, error: (err as Error).message };
      log(`  web build failed: ${web.error}`);
    }
  }

  const terms = queryTerms(ds.spec);
  const results: EngineResults[] = [];
  let lighthouseDone = false;
  for (const engine of engines) {
    const wantLighthouse = !!web?.bundles && !lighthouseDone && (!quick || args.lighthouse!);
    const { result, lighthouse } = await measureEngine(
      ds,
      engine,
      data.get(engine),
      buildShapes(terms),
      wantLighthouse,
    );
    results.push(result);
    if (lighthouse) {
      web!.lighthouse = lighthouse;
      lighthouseDone = true;
    }
  }

  const report: BenchResults = {
    mode,
    startedAt: startedAt.toISOString(),
    durationSeconds: Math.round((performance.now() - t0) / 1000),
    machine: machine(await timerProbe()),
    dataset: {
      key: ds.key,
      totalParcels: ds.totalParcels,
      bigClientParcels: ds.spec.big.parcels,
      towns: ds.spec.towns.length,
    },
    engines: results,
    web,
    checks: [],
    notes,
  };
  report.checks = computeChecks(report);
  const freezing = frozenMachine(report.machine);
  if (freezing)
    notes.push(
      `this machine freezes now and then (${freezing}): the latencies and rates above measure the freezes as much as the portal`,
    );

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const stem = quick ? 'quick-latest' : 'latest';
  fs.writeFileSync(path.join(RESULTS_DIR, `${stem}.json`), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS_DIR, `${stem}.md`), `${markdown(report)}\n`);

  for (const e of results) {
    log(`\n${e.engine === 'pglite' ? 'Embedded engine (PGlite)' : 'PostgreSQL server'}`);
    if (e.skipped) log(`  skipped: ${e.skipped}`);
    else log([...engineTable(e), '', ...engineSummary(e)].join('\n'));
  }
  if (web) log(`\nWeb\n${webTable(report).join('\n')}`);
  const failed = report.checks.filter((c) => c.pass === false);
  log(`\nTargets met: ${report.checks.length - failed.length} of ${report.checks.length}`);
  for (const c of failed) log(`  ✗ ${c.scope}: ${c.name}: ${c.value} (target ${c.target})`);
  for (const n of notes) log(`  note: ${n}`);
  log(`\nWrote bench/results/${stem}.json and ${stem}.md (${(report.durationSeconds / 60).toFixed(1)} min)`);

  const harnessFailed = results.some((e) => e.error);
  if (!quick) return harnessFailed ? 2 : failed.length ? 1 : 0;

  const figures = figuresOf(report);
  if (args['update-baseline']) {
    fs.writeFileSync(
      QUICK_BASELINE,
      `${JSON.stringify(
        { recordedAt: report.startedAt, machine: { ...report.machine, floorRps: floorsOf(report) }, figures },
        null,
        2,
      )}\n`,
    );
    log(`Recorded ${Object.keys(figures).length} figures as bench/results/quick-baseline.json`);
    return harnessFailed ? 2 : 0;
  }
  if (harnessFailed) return 2;
  if (!fs.existsSync(QUICK_BASELINE)) {
    log('No bench/results/quick-baseline.json yet: nothing to compare (record one with --update-baseline).');
    return 0;
  }
  const baseline = JSON.parse(fs.readFileSync(QUICK_BASELINE, 'utf8')) as {
    figures: Figures;
    machine?: BenchResults['machine'];
  };
  const then = baseline.machine?.calibrationMs?.start;
  const now = Math.min(report.machine.calibrationMs.start, report.machine.calibrationMs.end);
  const contention = then ? Math.max(1, now / then) : 1;
  if (contention > 1.2)
    log(
      `The machine is ${contention.toFixed(1)}× busier than when the baseline was recorded; allowances scale by that.`,
    );
  const floors = floorsOf(report);
  const slowdown = httpSlowdown(floors, baseline.machine?.floorRps);
  for (const [engine, factor] of Object.entries(slowdown))
    if (factor > 1.2)
      log(
        `${engine}: the server answered ${floors[engine]!.toLocaleString('en-US')} /healthz requests a second against ` +
          `${baseline.machine!.floorRps![engine]!.toLocaleString('en-US')} when the baseline was recorded; ` +
          `latency allowances scale by ${factor.toFixed(1)}.`,
      );
  const { worse, frozen } = compareQuick(figures, baseline.figures, report.machine, contention, slowdown);
  if (frozen)
    log(
      `\nWARNING: this machine freezes now and then: ${frozen}. This run's timings are written to ` +
        `bench/results/quick-latest.md but not compared with the baseline; bundle sizes are.`,
    );
  if (worse.length) {
    log(`\nRegressed by more than 3× against bench/results/quick-baseline.json:`);
    for (const w of worse) log(`  ✗ ${w}`);
    return 1;
  }
  log(
    frozen
      ? `No bundle size regressed by more than 3× against bench/results/quick-baseline.json; timings not judged.`
      : `No figure regressed by more than 3× against bench/results/quick-baseline.json.`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`bench: ${(err as Error).stack ?? String(err)}`);
    process.exit(2);
  },
);
