#!/usr/bin/env node
// `npm run test:sqlmap`: sqlmap (Debian package `sqlmap`) at level 5, risk 3 against the search, filter,
// sort and paging parameters, the other public lookups and the login, on a real portal with the demo
// towns, once on the embedded database (PGlite) and once on a throwaway database on the PostgreSQL
// server. Passes only when no target has a confirmed injection point and every target finished within
// its time budget (SQLMAP_TARGET_SECONDS, default 900), so a pass always means everything was tested.
//
// What counts is sqlmap's own verdict: the "sqlmap identified the following injection point(s)" block it
// prints (and writes to the `log` file in its output folder) only for a point that survived its
// confirmation and false-positive checks. Its earlier heuristic lines ("might be injectable", "appears
// to be … injectable") are shown in the table as leads, never counted: sqlmap itself drops most of them
// a few requests later. Time-based checks use a fixed threshold (`--disable-stats --time-sec=10`)
// instead of sqlmap's statistical model, which calls any answer slower than 0.5 s and the mean + 7σ
// "delayed": on a busy 2-core machine an embedded database pausing for a moment passes that test.
// A real injection still delays every answer by the full 10 s and is found the same way.
//
// sqlmap's full output per target is kept in artifacts/sqlmap/<engine>/ (gitignored).
// SQLMAP_ENGINES=pglite|postgres|pglite,postgres (default both), SQLMAP_ONLY=<parts of target names, comma-separated>,
// SQLMAP_AT_ONCE=<n> targets tested at once per engine (default 3),
// TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) as for the other tests.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const budget = Number(process.env.SQLMAP_TARGET_SECONDS ?? 900);
const atOnce = Number(process.env.SQLMAP_AT_ONCE ?? 3);
const only = process.env.SQLMAP_ONLY;
const engines = (process.env.SQLMAP_ENGINES ?? 'pglite,postgres').split(',').map((e) => e.trim());
const artifacts = path.join(root, 'artifacts', 'sqlmap');
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

if (engines.some((e) => e !== 'pglite' && e !== 'postgres')) {
  console.error(`SQLMAP_ENGINES: pglite, postgres or both, got "${engines.join(',')}"`);
  process.exit(2);
}
if (spawnSync('sqlmap', ['--version'], { stdio: 'ignore' }).error) {
  console.error('sqlmap is not installed: apt-get update && apt-get install -y sqlmap');
  process.exit(1);
}

const portal = (args) => [
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts'), ...args],
];

/** Where one engine's portal keeps its data: a data folder, or a fresh database on the server. */
async function openStore(engine) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-sqlmap-'));
  if (engine === 'pglite')
    return {
      env: { DATA_DIR: dataDir },
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  const name = `opp_sqlmap_${randomBytes(5).toString('hex')}`;
  // A generous timeout: on a busy machine (CI runs this beside the load suite) 5 s was once not enough.
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 30_000 });
  try {
    await admin.connect();
  } catch (err) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(
      `PostgreSQL is not reachable at ${adminUrl}: ${err.message} (start it, or set SQLMAP_ENGINES=pglite)`,
    );
  }
  try {
    // CREATE DATABASE copies template1 and fails while another session is creating one from it (other
    // test runs on the same server): wait and try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database ${name}`);
        break;
      } catch (err) {
        if (err.code !== '55006' || attempt === 20) throw err;
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  } catch (err) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`cannot create the database ${name}: ${err.message}`);
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** The demo towns, then `portal serve`; resolves with the server process and its address. */
async function startPortal(storeEnv) {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    WEB_DIST: '',
    PORTAL_DEMO: '0',
    // sqlmap is one client sending thousands of requests: the public limits would answer 429 to most of
    // them and hide the endpoints. X-Forwarded-For (random per request, see --tamper below) is trusted so
    // that the login's per-address throttle does not end the run either.
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
    EXPORT_RATE_LIMIT_PER_MINUTE: '100000000',
    TRUST_PROXY: '1',
    // Each of those logins is verified against the dummy hash (an unknown name costs what a wrong
    // password does). The hash's cost is not under test here, and at full cost the login target spent
    // minutes of CPU on it: a test run hashes with N = 2^10 (features/auth/password.ts).
    NODE_ENV: 'test',
    TEST_SCRYPT_LOG_N: '10',
    ...storeEnv,
  };
  // Asynchronously: the other engine's sqlmap run is reading its output meanwhile.
  const [node, demoArgs] = portal(['demo', '--parcels', '300']);
  const demo = spawn(node, demoArgs, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let demoOut = '';
  demo.stdout.on('data', (d) => (demoOut += d));
  demo.stderr.on('data', (d) => (demoOut += d));
  const demoCode = await new Promise((resolve) => demo.once('close', resolve));
  if (demoCode !== 0) throw new Error(`portal demo failed (exit ${demoCode}):\n${demoOut}`);

  const [, serveArgs] = portal(['serve']);
  const server = spawn(node, serveArgs, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  server.stdout.on('data', (d) => (out += d));
  server.stderr.on('data', (d) => (out += d));
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`portal did not start:\n${out}`)), 120_000);
    server.stdout.on('data', () => {
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`portal exited (${code}):\n${out}`));
    });
  }).catch((err) => {
    if (server.exitCode === null) server.kill('SIGKILL');
    throw err;
  });
  return { server, base, output: () => out };
}

/** The targets; `*` marks each injection point and sqlmap tests every one separately. */
function targetsFor(base, id) {
  const filters = {
    sale: { price: { start: '1000*', end: '900000*' }, date: { start: '2000-01-01*', end: '2030-01-01*' } },
    land: { area: { start: '0.1*', end: '500*' }, type: ['Residential*'] },
    building: {
      area: { start: '100*' },
      style: ['Colonial*'],
      bedrooms: '2*',
      bathrooms: '1*',
      ownership: ['residential*'],
    },
  };
  const sort = { sortby: 'Name*', descending: false };
  const enc = (v) => encodeURIComponent(JSON.stringify(v)).replace(/%2A/g, '*');
  const json = (url, data) => ['-u', url, '--method', 'POST', '--data', data];
  return [
    {
      slug: 'search-paging',
      name: 'search: path, query, page, pagesize',
      args: json(`${base}/api/propertysearch/${id}*?query=smith*&page=1*&pagesize=50*`, '{}'),
    },
    {
      slug: 'search-filters-sort',
      name: 'search: every filter and the sort',
      args: json(`${base}/api/propertysearch/${id}?query=main&page=1`, JSON.stringify({ filters, sort })),
    },
    {
      slug: 'csv-export',
      name: 'CSV export: query, filters, sort',
      args: [
        '-u',
        `${base}/api/propertysearch/${id}/export.csv?query=main*&filters=${enc({ sale: filters.sale, land: filters.land })}&sort=${enc(sort)}`,
      ],
    },
    {
      slug: 'property-page',
      name: 'property page',
      args: ['-u', `${base}/api/fullproperty/1*?city=Denmark*&state=Maine*`],
    },
    { slug: 'suggest', name: 'type-ahead', args: ['-u', `${base}/api/suggest/${id}?q=main*`] },
    { slug: 'town-lookup', name: 'town lookups', args: ['-u', `${base}/api/client/Maine*/Denmark*`] },
    {
      slug: 'login',
      name: 'login: Identity and Code',
      args: [
        // A wrong login is a 401 by design (and a throttled one 429): sqlmap must read those answers
        // rather than stop at the first one.
        '--ignore-code=401,429',
        ...json(
          `${base}/api/login`,
          '{"Identity":"sqlmap-user*","Password":"not the password","Code":"123456*"}',
        ),
      ],
    },
  ];
}

const common = [
  '--batch',
  '--level=5',
  '--risk=3',
  '--dbms=PostgreSQL',
  '--threads=1',
  '--time-sec=10',
  '--disable-stats',
  '--skip-waf',
  '--flush-session',
  '--disable-coloring',
  '--tamper=xforwardedfor',
  '-H',
  'Content-Type: application/json',
];

/** Reads sqlmap's transcript, its log file and its results CSV into a verdict. */
function verdictOf(out, sessionDir) {
  const fromOutput = new Set();
  for (const block of out.matchAll(
    /identified the following injection point\(s\)[^\n]*\n---\n([\s\S]*?)\n---/g,
  ))
    for (const m of block[1].matchAll(/^Parameter: (.+)$/gm)) fromOutput.add(m[1].trim());
  // sqlmap also writes every identified point to <output-dir>/<host>/log, and a row to its results-*.csv
  // for every point it got as far as checking, refuted ones with the note "false positive or
  // unexploitable": read both (all but the refuted rows), in case the transcript was cut short.
  const fromLog = new Set();
  const fromCsv = new Set();
  for (const entry of fs.existsSync(sessionDir) ? fs.readdirSync(sessionDir) : []) {
    const log = path.join(sessionDir, entry, 'log');
    if (fs.existsSync(log))
      for (const m of fs.readFileSync(log, 'utf8').matchAll(/^Parameter: (.+)$/gm)) fromLog.add(m[1].trim());
    if (/^results-.*\.csv$/.test(entry))
      for (const line of fs.readFileSync(path.join(sessionDir, entry), 'utf8').split('\n').slice(1))
        if (line.trim() && !/false positive/i.test(line)) fromCsv.add(line.split(',').slice(1, 3).join(' '));
  }
  const confirmed = [fromOutput, fromLog, fromCsv].reduce((a, b) => (b.size > a.size ? b : a));
  const tested = new Set(
    [...out.matchAll(/testing for SQL injection on (.+?) parameter '([^']+)'/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    ),
  );
  const leads = [...out.matchAll(/parameter '([^']+)' (?:might be|appears to be|is) '?[^\n]*injectable/gi)]
    .length;
  const discarded = (out.match(/false positive or unexploitable injection point detected/g) ?? []).length;
  // sqlmap sums up the error answers it got ("400 (Bad Request) - 1139 times, …").
  const refused = [...out.matchAll(/\) - (\d+) times/g)].reduce((n, m) => n + Number(m[1]), 0);
  const finished =
    /all tested parameters do not appear to be injectable|identified the following injection point/.test(out);
  return { confirmed: [...confirmed], tested: tested.size, leads, discarded, refused, finished };
}

function runSqlmap(engine, target) {
  const dir = path.join(artifacts, engine);
  const sessionDir = path.join(dir, target.slug);
  const logFile = path.join(dir, `${target.slug}.log`);
  // Only this target's previous output goes (SQLMAP_ONLY keeps the others' from earlier runs).
  fs.rmSync(sessionDir, { recursive: true, force: true });
  return new Promise((resolve) => {
    const started = Date.now();
    const args = [...target.args, ...common, '--output-dir', sessionDir];
    const p = spawn('sqlmap', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const log = fs.createWriteStream(logFile);
    log.write(`$ sqlmap ${args.map((a) => (/[\s"'*&?]/.test(a) ? `'${a}'` : a)).join(' ')}\n\n`);
    let out = '';
    const take = (d) => {
      out += d;
      log.write(d);
    };
    p.stdout.on('data', take);
    p.stderr.on('data', take);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      p.kill('SIGKILL');
    }, budget * 1000);
    p.once('close', (code) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      log.end(
        `\n[exit ${code}${timedOut ? `, killed after the ${budget} s budget` : ''}, ${seconds.toFixed(0)} s]\n`,
      );
      resolve({ engine, name: target.name, code, timedOut, seconds, logFile, ...verdictOf(out, sessionDir) });
    });
  });
}

const pad = (s, n) => String(s).padEnd(n);
const padl = (s, n) => String(s).padStart(n);

async function runEngine(engine) {
  fs.mkdirSync(path.join(artifacts, engine), { recursive: true });
  const started = Date.now();
  console.log(`── ${engine}: creating the demo towns and starting the portal…`);
  const store = await openStore(engine);
  let running = null;
  const results = [];
  try {
    running = await startPortal(store.env);
    const lookup = await (await fetch(`${running.base}/api/client/Maine/Denmark`)).json();
    const chosen = targetsFor(running.base, lookup.ClientID).filter(
      (t) => !only || only.split(',').some((o) => t.name.includes(o) || t.slug.includes(o)),
    );
    // A few targets at once: each sqlmap run waits on one request at a time, so one alone leaves most
    // of the machine idle.
    const queue = [...chosen];
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(atOnce, queue.length)) }, async () => {
        for (let target = queue.shift(); target; target = queue.shift()) {
          const r = await runSqlmap(engine, target);
          results.push(r);
          const state = r.confirmed.length
            ? `INJECTABLE: ${r.confirmed.join(', ')}`
            : r.timedOut
              ? `OUT OF TIME (${budget} s)`
              : !r.finished
                ? `DID NOT FINISH (exit ${r.code})`
                : 'clean';
          console.log(
            `sqlmap (${engine}) → ${target.name}: ${state} (${r.tested} parameters, ${r.seconds.toFixed(0)} s)`,
          );
          if (state !== 'clean') console.log(`  full output: ${path.relative(root, r.logFile)}`);
          if (running.server.exitCode !== null) throw new Error(`the portal died:\n${running.output()}`);
        }
      }),
    );
    results.sort(
      (a, b) => chosen.findIndex((t) => t.name === a.name) - chosen.findIndex((t) => t.name === b.name),
    );
  } finally {
    if (running && running.server.exitCode === null) {
      running.server.kill('SIGTERM');
      await new Promise((r) => running.server.once('exit', r));
    }
    await store.drop();
  }
  return { engine, results, seconds: (Date.now() - started) / 1000 };
}

// The engines run side by side: each sqlmap run is one request at a time (sqlmap, then the portal, in
// turn), so two of them keep a 2-core machine busy without queueing behind each other.
// SQLMAP_SERIAL=1 runs them one after the other.
const settled = [];
/** Says at once why an engine's run stopped (the other may go on for minutes), then fails it. */
const report = (engine) => (err) => {
  console.error(`sqlmap (${engine}): ${err.message}`);
  throw err;
};
if (process.env.SQLMAP_SERIAL === '1')
  for (const engine of engines)
    settled.push(...(await Promise.allSettled([runEngine(engine).catch(report(engine))])));
else settled.push(...(await Promise.allSettled(engines.map((e) => runEngine(e).catch(report(e))))));
const runs = settled.filter((s) => s.status === 'fulfilled').map((s) => s.value);
let failed = null;
for (const [i, s] of settled.entries())
  if (s.status === 'rejected') {
    failed = s.reason;
    console.error(`✗ sqlmap (${engines[i]}) did not run to the end: ${s.reason.message.split('\n')[0]}`);
  }

const all = runs.flatMap((r) => r.results);
if (all.length) {
  const cols = [10, 38, 11, 6, 10, 6, 11];
  const row = (cells) => cells.map((c, i) => (i < 2 ? pad(c, cols[i]) : padl(c, cols[i]))).join('  ');
  console.log(
    `\nsqlmap, level 5, risk 3 (full output: ${path.relative(root, artifacts)}/<engine>/<target>.log)`,
  );
  console.log(row(['engine', 'target', 'parameters', 'leads', 'discarded', 'time', 'injectable']));
  for (const r of all)
    console.log(
      row([
        r.engine,
        r.name,
        r.tested,
        r.leads,
        r.discarded,
        `${r.seconds.toFixed(0)} s`,
        r.timedOut || !r.finished ? 'unfinished' : r.confirmed.length,
      ]),
    );
  console.log(
    '(leads: heuristic hints sqlmap itself went on to test; discarded: leads its false-positive check refuted)',
  );
}
for (const run of runs) {
  const injectable = run.results.reduce((n, r) => n + r.confirmed.length, 0);
  const tested = run.results.reduce((n, r) => n + r.tested, 0);
  console.log(
    `sqlmap (${run.engine}): ${run.results.length} targets, ${tested} parameters tested, ${injectable} injectable in ${run.seconds.toFixed(0)} s`,
  );
}
const injectable = all.reduce((n, r) => n + r.confirmed.length, 0);
const unfinished = all.filter((r) => r.timedOut || !r.finished);
console.log(
  `sqlmap: ${all.length} targets, ${all.reduce((n, r) => n + r.tested, 0)} parameters tested, ${injectable} injectable` +
    (unfinished.length ? `; ${unfinished.length} target(s) did not finish` : ''),
);
process.exit(failed || injectable || unfinished.length || !all.length ? 1 : 0);
