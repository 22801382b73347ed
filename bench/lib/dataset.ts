import { MALLOC_ENV } from '../../apps/server/bin/malloc-env.mjs';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { acquireDataDirLock } from '../../apps/server/src/db/data-dir-lock.ts';
import type { EngineTarget, ImportResult, ImportTask } from '../import-worker.ts';
import { datasetSpec, GENERATOR_VERSION, type ClientSpec, type DatasetSpec } from './generator.ts';
import { writeClientJsonl } from './jsonl-writer.ts';
import { ROOT } from './server-process.ts';

/*
 * The data set is built once per set of generator inputs (generator version, seed, sizes) and reused
 * while they are unchanged, however long ago it was built. The build records a hash of the code that
 * turns a record into stored rows and of the importer: when either has changed since, the report says
 * so, and `--rebuild` refreshes the data. Migrations added later are applied by the server at start-up,
 * as in production.
 */

export const CACHE_DIR = path.join(ROOT, 'bench/.cache');
export const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

const ROW_FORMAT_FILES = [
  'apps/server/src/features/properties/property-row.ts',
  'apps/server/src/features/search/search-columns.ts',
  'apps/server/src/features/properties/search-text.ts',
  'apps/server/src/features/properties/record-codec.ts',
  'packages/contracts/src/property.ts',
];
const IMPORTER_FILES = [
  'apps/server/src/features/rolls/import.service.ts',
  'apps/server/src/features/rolls/rolls.repository.ts',
  'apps/server/src/features/rolls/record-sources.ts',
  'apps/server/src/features/rolls/jsonl-records.ts',
  'apps/server/src/features/rolls/full-check.ts',
  'apps/server/src/features/rolls/record-fast-path.ts',
  'apps/server/src/features/rolls/roll-rows.ts',
  'apps/server/src/features/rolls/prepare-pool.ts',
  'apps/server/src/features/rolls/prepare-worker.ts',
  'apps/server/src/lib/thread-start.ts',
  'apps/server/src/lib/byte-writer.ts',
  'apps/server/migrations/0006_roll_partitions.sql',
  'apps/server/migrations/0007_record_json.sql',
  'apps/server/migrations/0008_record_text.sql',
  'apps/server/migrations/0009_property_records.sql',
  'apps/server/src/db/pglite-create.ts',
];

function hashFiles(files: string[]): string {
  const h = createHash('sha256');
  for (const f of files) {
    const p = path.join(ROOT, f);
    h.update(f).update(fs.existsSync(p) ? fs.readFileSync(p) : 'missing');
  }
  return h.digest('hex').slice(0, 12);
}

export interface Dataset {
  spec: DatasetSpec;
  key: string;
  dir: string;
  bigJsonl: string;
  probeJsonl: string;
  probeRecords: number;
  totalParcels: number;
}

type Engine = 'pglite' | 'postgres';

export interface EngineBuild {
  engine: Engine;
  key: string;
  builtAt: string;
  /** The row-building code when the data was built: a different hash now means the rows are dated. */
  rowFormatHash: string;
  /** The importer's code when the data was built: a different hash now means the figure is stale. */
  importerHash: string;
  /** Migrations present when the data was built (later ones are applied by the server at start). */
  migrations?: string[];
  /** Their contents' hashes: a migration edited in place after the build never reaches the data set. */
  migrationHashes?: Record<string, string>;
  buildSeconds: number;
  result: ImportResult;
  clientIds: { big: number };
}

export function resolveDataset(name: 'full' | 'quick'): Dataset {
  const spec = datasetSpec(name);
  const key = createHash('sha256')
    .update(JSON.stringify({ v: GENERATOR_VERSION, spec }))
    .digest('hex')
    .slice(0, 12);
  const dir = path.join(CACHE_DIR, `data-${name}-${key}`);
  const probeRecords = name === 'full' ? 100_000 : 20_000;
  return {
    spec,
    key,
    dir,
    bigJsonl: path.join(dir, 'big.jsonl'),
    probeJsonl: path.join(dir, 'probe.jsonl'),
    probeRecords,
    totalParcels: spec.big.parcels + spec.towns.reduce((n, t) => n + t.parcels, 0),
  };
}

export const importerHash = () => hashFiles(IMPORTER_FILES);

const MIGRATIONS_DIR = path.join(ROOT, 'apps/server/migrations');
export const migrationFiles = () =>
  fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();

const migrationHash = (f: string) =>
  createHash('sha256')
    .update(fs.readFileSync(path.join(MIGRATIONS_DIR, f)))
    .digest('hex')
    .slice(0, 12);
export const migrationHashes = () => Object.fromEntries(migrationFiles().map((f) => [f, migrationHash(f)]));

/**
 * How the current migrations differ from those the data set was built with. `added` (touching the
 * properties table): the server applies them at start, but a change to how rows are stored only reaches
 * rows imported later. `edited`: a migration changed in place after it was applied to the data set; the
 * server will not re-apply it, so the data set's schema is not the current one.
 */
export function migrationDrift(build: EngineBuild): { added: string[]; edited: string[] } {
  if (!build.migrations) return { added: [], edited: [] };
  const added = migrationFiles().filter(
    (f) =>
      !build.migrations!.includes(f) &&
      /\bproperties\b/.test(fs.readFileSync(path.join(MIGRATIONS_DIR, f), 'utf8')),
  );
  const edited = Object.entries(build.migrationHashes ?? {})
    .filter(([f, h]) => fs.existsSync(path.join(MIGRATIONS_DIR, f)) && migrationHash(f) !== h)
    .map(([f]) => f);
  return { added, edited };
}
export const rowFormatHash = () => hashFiles(ROW_FORMAT_FILES);

/** Writes the county roll (and the first records again as the import probe) as JSON Lines, once. */
export async function ensureJsonl(ds: Dataset, log: (s: string) => void): Promise<void> {
  const done = path.join(ds.dir, 'jsonl.done');
  if (fs.existsSync(done)) return;
  fs.mkdirSync(ds.dir, { recursive: true });
  // Older data sets of the same kind are dead weight (gigabytes); keep only the current one.
  for (const d of fs.readdirSync(CACHE_DIR)) {
    if (d.startsWith(`data-${ds.spec.name}-`) && path.join(CACHE_DIR, d) !== ds.dir) {
      log(`  removing the outdated cache ${d}`);
      fs.rmSync(path.join(CACHE_DIR, d), { recursive: true, force: true });
    }
  }
  log(
    `  writing ${ds.spec.big.parcels.toLocaleString('en-US')} records to ${path.relative(ROOT, ds.bigJsonl)}`,
  );
  const started = performance.now();
  await writeClientJsonl(ds.spec.seed, ds.spec.big, ds.bigJsonl, {
    file: ds.probeJsonl,
    records: ds.probeRecords,
  });
  fs.writeFileSync(done, new Date().toISOString());
  log(`  written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export function pgDatabaseName(ds: Dataset) {
  return `opp_bench_${ds.spec.name}`;
}

export function pgUrl(database: string) {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function postgresReachable(): Promise<boolean> {
  try {
    await withAdmin((c) => c.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

export function engineTarget(ds: Dataset, engine: Engine): EngineTarget {
  return engine === 'pglite'
    ? { engine, dataDir: path.join(ds.dir, 'pglite') }
    : { engine, url: pgUrl(pgDatabaseName(ds)) };
}

function metaPath(ds: Dataset, engine: string) {
  return path.join(ds.dir, `${engine}.json`);
}

/** The county import's figure, kept apart so that a resumed build still reports it. */
function bigFigurePath(ds: Dataset, engine: string) {
  return path.join(ds.dir, `${engine}-big-import.json`);
}

function partialPath(ds: Dataset, engine: string) {
  return path.join(ds.dir, `${engine}.building`);
}

/** The recorded build, if the engine's data matches this data set's key. */
async function existingBuild(ds: Dataset, engine: Engine): Promise<EngineBuild | null> {
  const file = metaPath(ds, engine);
  if (!fs.existsSync(file)) return null;
  const meta = JSON.parse(fs.readFileSync(file, 'utf8')) as EngineBuild;
  if (meta.key !== ds.key) return null;
  if (engine === 'postgres') {
    // The database may have been dropped or rebuilt by someone else: its comment carries the key.
    const comment = await withAdmin(async (c) => {
      const r = await c.query<{ d: string | null }>(
        `select shobj_description(oid, 'pg_database') as d from pg_database where datname = $1`,
        [pgDatabaseName(ds)],
      );
      return r.rows[0]?.d ?? null;
    });
    if (comment !== ds.key) return null;
  } else if (!fs.existsSync(path.join(ds.dir, 'pglite'))) return null;
  return meta;
}

interface ImportWorker {
  /** Resolves with the task's result; rejects when the process fails. */
  done: Promise<unknown>;
  /** Resolves when a build has imported the county and waits for `resume()` to import the towns. */
  paused: Promise<void>;
  resume(): void;
  kill(): void;
}

function spawnImportWorker(task: ImportTask): ImportWorker {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/import-worker.ts'), JSON.stringify(task)],
    // The allocator settings the `portal` command (server and `portal import`) runs with.
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: { ...MALLOC_ENV, ...process.env },
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  let onPause = () => {};
  const paused = new Promise<void>((resolve) => (onPause = resolve));
  child.on('message', (m) => {
    if (m === 'paused') onPause();
  });
  const done = new Promise<unknown>((resolve, reject) => {
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)));
      else reject(new Error(`the ${task.target.engine} import worker failed (exit ${code})`));
    });
  });
  // Awaited later, or never when another worker failed first and this one was killed.
  done.catch(() => {});
  return {
    done,
    paused,
    resume: () => child.connected && child.send('resume'),
    kill: () => child.kill(),
  };
}

/**
 * Creates and migrates the database in a process of its own, so that an import's process measures the
 * import's peak memory alone, not the database creation's (initdb peaks near 1 GB on PGlite for a moment).
 */
const prepareDatabase = (target: EngineTarget) => spawnImportWorker({ kind: 'prepare', target }).done;

/** Imports in a process of its own, into a database prepared by another one before. */
export async function runImportWorker(task: Exclude<ImportTask, { kind: 'prepare' }>): Promise<ImportResult> {
  await prepareDatabase(task.target);
  return (await spawnImportWorker(task).done) as ImportResult;
}

export type EngineData = { build: EngineBuild; reused: boolean };

/** Empties the engine's database for a build, or finds an interrupted one to resume. */
async function beginBuild(ds: Dataset, engine: Engine, rebuild: boolean, log: (s: string) => void) {
  const target = engineTarget(ds, engine);
  const partial = partialPath(ds, engine);
  // A build that was interrupted resumes (the worker skips the clients it finished) unless --rebuild;
  // one cut off during the county's import, the first, has nothing worth keeping and starts afresh.
  const resume =
    !rebuild &&
    fs.existsSync(partial) &&
    fs.readFileSync(partial, 'utf8') === ds.key &&
    fs.existsSync(bigFigurePath(ds, engine));
  if (!resume) {
    if (target.engine === 'pglite') {
      // Never delete a folder another process (a running build or server) has open: this throws then.
      if (fs.existsSync(target.dataDir)) acquireDataDirLock(target.dataDir).release();
      fs.rmSync(target.dataDir, { recursive: true, force: true });
    } else
      await withAdmin(async (c) => {
        await c.query(`drop database if exists ${pgDatabaseName(ds)} with (force)`);
        await c.query(`create database ${pgDatabaseName(ds)}`);
      });
    fs.rmSync(bigFigurePath(ds, engine), { force: true });
    fs.mkdirSync(ds.dir, { recursive: true });
    fs.writeFileSync(partial, ds.key);
  } else log(`  resuming the interrupted ${engine} build`);
  fs.rmSync(metaPath(ds, engine), { force: true });
  log(
    `  building the ${engine} data set: ${ds.totalParcels.toLocaleString('en-US')} parcels in ${ds.spec.towns.length + 1} clients (key ${ds.key})`,
  );
  await prepareDatabase(target);
  return {
    engine,
    target,
    // The code and schema as the worker starts (it reads them then); the build can take an hour.
    code: {
      rowFormatHash: rowFormatHash(),
      importerHash: importerHash(),
      migrations: migrationFiles(),
      migrationHashes: migrationHashes(),
    },
  };
}

type Begun = Awaited<ReturnType<typeof beginBuild>>;

function buildTask(ds: Dataset, b: Begun, pauseAfterBig: boolean): ImportTask {
  return {
    kind: 'build',
    target: b.target,
    seed: ds.spec.seed,
    big: ds.spec.big,
    bigJsonl: ds.bigJsonl,
    bigFigureFile: bigFigurePath(ds, b.engine),
    towns: ds.spec.towns,
    pauseAfterBig,
  };
}

async function finishBuild(
  ds: Dataset,
  b: Begun,
  started: number,
  result: ImportResult,
  log: (s: string) => void,
) {
  const build: EngineBuild = {
    engine: b.engine,
    key: ds.key,
    builtAt: new Date().toISOString(),
    ...b.code,
    buildSeconds: Math.round((performance.now() - started) / 1000),
    result,
    clientIds: { big: result.big.clientId },
  };
  if (b.engine === 'postgres') {
    // What autovacuum does after a bulk load on a default PostgreSQL (statistics for the planner, the
    // visibility map for index-only scans). PGlite has no autovacuum: its data is measured as the
    // import leaves it.
    log('  postgres: vacuum (analyze), as autovacuum would');
    const c = new pg.Client({ connectionString: pgUrl(pgDatabaseName(ds)) });
    await c.connect();
    try {
      await c.query('vacuum (analyze)');
    } finally {
      await c.end();
    }
    await withAdmin((a) => a.query(`comment on database ${pgDatabaseName(ds)} is '${ds.key}'`));
  }
  fs.writeFileSync(metaPath(ds, b.engine), JSON.stringify(build, null, 2));
  fs.rmSync(partialPath(ds, b.engine), { force: true });
  log(`  ${b.engine}: built in ${build.buildSeconds} s`);
  return build;
}

/**
 * Reuses each engine's data when its key matches, otherwise rebuilds it through the import. Two builds
 * overlap where nothing is measured: each county import (the import figure) runs alone, the first
 * engine's, then the second's while the first waits, and then both fill in the towns at the lowest CPU
 * priority together. The PGlite build leaves most of a core idle (its engine is one thread), so the two
 * builds take about what the PostgreSQL one adds to the first, not the sum.
 */
export async function ensureEnginesData(
  ds: Dataset,
  engines: Engine[],
  options: { rebuild: boolean; log: (s: string) => void },
): Promise<Map<Engine, EngineData>> {
  const { log } = options;
  const data = new Map<Engine, EngineData>();
  const begun: Begun[] = [];
  for (const engine of engines) {
    const existing = options.rebuild ? null : await existingBuild(ds, engine);
    if (existing) {
      log(`  reusing the ${engine} data set built ${existing.builtAt} (key ${ds.key})`);
      data.set(engine, { build: existing, reused: true });
    } else begun.push(await beginBuild(ds, engine, options.rebuild, log));
  }
  const workers: ImportWorker[] = [];
  const started: number[] = [];
  try {
    // Each county import starts once the previous engine's is done (its worker then waits).
    for (const [i, b] of begun.entries()) {
      started.push(performance.now());
      const w = spawnImportWorker(buildTask(ds, b, begun.length > 1));
      workers.push(w);
      if (i < begun.length - 1) await Promise.race([w.paused, w.done]);
    }
    if (workers.length > 1) {
      await Promise.race([Promise.all(workers.map((w) => w.paused)), ...workers.map((w) => w.done)]);
      for (const w of workers) w.resume();
    }
    // Each build is finished (PostgreSQL's vacuum) as soon as its worker is done.
    const builds = await Promise.all(
      begun.map(async (b, i) =>
        finishBuild(ds, b, started[i]!, (await workers[i]!.done) as ImportResult, log),
      ),
    );
    for (const build of builds) data.set(build.engine, { build, reused: false });
  } catch (err) {
    for (const w of workers) w.kill();
    throw err;
  }
  return data;
}

/** Imports the probe roll (the first records of the county) into a fresh, empty database. */
export async function probeImport(ds: Dataset, engine: Engine) {
  const client: ClientSpec = { index: 999, city: 'Probe Town', state: 'Maine', parcels: ds.probeRecords };
  if (engine === 'pglite') {
    const dataDir = path.join(CACHE_DIR, 'probe-pglite');
    fs.rmSync(dataDir, { recursive: true, force: true });
    try {
      return await runImportWorker({
        kind: 'probe',
        target: { engine, dataDir },
        client,
        jsonl: ds.probeJsonl,
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const name = 'opp_bench_probe';
  await withAdmin(async (c) => {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name}`);
  });
  try {
    return await runImportWorker({
      kind: 'probe',
      target: { engine, url: pgUrl(name) },
      client,
      jsonl: ds.probeJsonl,
    });
  } finally {
    await withAdmin((c) => c.query(`drop database if exists ${name} with (force)`));
  }
}
