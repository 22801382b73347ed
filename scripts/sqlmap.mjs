#!/usr/bin/env node
// `npm run test:sqlmap`: sqlmap (Debian package `sqlmap`) at level 5, risk 3 against the search, filter,
// sort and paging parameters, the other public lookups and the login, on a real portal with the demo
// towns. Passes only when sqlmap finds 0 injectable parameters in every target. Each target has a time
// budget (SQLMAP_TARGET_SECONDS, default 300); a target that runs out of time fails the run, so a
// "pass" always means the whole target was tested.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const budget = Number(process.env.SQLMAP_TARGET_SECONDS ?? 300);
const only = process.env.SQLMAP_ONLY;

if (spawnSync('sqlmap', ['--version'], { stdio: 'ignore' }).error) {
  console.error('sqlmap is not installed: apt-get update && apt-get install -y sqlmap');
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-sqlmap-'));
const outDir = path.join(dataDir, 'sqlmap-output');
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? os.tmpdir(),
  DATA_DIR: dataDir,
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
};
const portal = (args) => [
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts'), ...args],
];

function cleanup(server) {
  if (server && server.exitCode === null) server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log('Creating the demo towns…');
const [node, demoArgs] = portal(['demo', '--parcels', '300']);
const demo = spawnSync(node, demoArgs, { cwd: root, env, encoding: 'utf8' });
if (demo.status !== 0) {
  console.error(demo.stdout, demo.stderr);
  cleanup(null);
  process.exit(1);
}

const [, serveArgs] = portal(['serve']);
const server = spawn(node, serveArgs, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
let serverOut = '';
server.stdout.on('data', (d) => (serverOut += d));
server.stderr.on('data', (d) => (serverOut += d));
const base = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`portal did not start:\n${serverOut}`)), 120_000);
  server.stdout.on('data', () => {
    const m = /running at (http:\/\/\S+)/.exec(serverOut);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
  server.once('exit', (code) => reject(new Error(`portal exited (${code}):\n${serverOut}`)));
}).catch((err) => {
  console.error(err.message);
  cleanup(server);
  process.exit(1);
});

const lookup = await (await fetch(`${base}/api/client/Maine/Denmark`)).json();
const id = lookup.ClientID;
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

// `*` marks each injection point; sqlmap tests every one separately.
const targets = [
  {
    name: 'search: path, query, page, pagesize',
    args: [
      '-u',
      `${base}/api/propertysearch/${id}*?query=smith*&page=1*&pagesize=50*`,
      '--method',
      'POST',
      '--data',
      '{}',
    ],
  },
  {
    name: 'search: every filter and the sort',
    args: [
      '-u',
      `${base}/api/propertysearch/${id}?query=main&page=1`,
      '--method',
      'POST',
      '--data',
      JSON.stringify({ filters, sort }),
    ],
  },
  {
    name: 'CSV export: query, filters, sort',
    args: [
      '-u',
      `${base}/api/propertysearch/${id}/export.csv?query=main*&filters=${enc({ sale: filters.sale, land: filters.land })}&sort=${enc(sort)}`,
    ],
  },
  {
    name: 'property page and type-ahead',
    args: ['-u', `${base}/api/fullproperty/1*?city=Denmark*&state=Maine*`],
    extra: { name: 'suggest', args: ['-u', `${base}/api/suggest/${id}?q=main*`] },
  },
  {
    name: 'town lookups',
    args: ['-u', `${base}/api/client/Maine*/Denmark*`],
  },
  {
    name: 'login: Identity and Code',
    args: [
      // A wrong login is a 401 by design (and a throttled one 429): sqlmap must read those answers
      // rather than stop at the first one.
      '--ignore-code=401,429',
      '-u',
      `${base}/api/login`,
      '--method',
      'POST',
      '--data',
      '{"Identity":"sqlmap-user*","Password":"not the password","Code":"123456*"}',
    ],
  },
];

const common = [
  '--batch',
  '--level=5',
  '--risk=3',
  '--dbms=PostgreSQL',
  '--threads=4',
  '--time-sec=2',
  '--flush-session',
  '--disable-coloring',
  '--tamper=xforwardedfor',
  '-H',
  'Content-Type: application/json',
  '--output-dir',
  outDir,
];

function runSqlmap(name, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const p = spawn('sqlmap', [...args, ...common], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      p.kill('SIGKILL');
    }, budget * 1000);
    p.once('exit', (code) => {
      clearTimeout(timer);
      const injectable = [
        ...out.matchAll(/parameter '([^']+)' (?:is|appears to be) '?[^\n]*injectable/gi),
      ].map((m) => m[1]);
      const identified = /sqlmap identified the following injection point/.test(out);
      // sqlmap sums up the error answers it got ("400 (Bad Request) - 1139 times, …").
      const requests = [...out.matchAll(/\) - (\d+) times/g)].reduce((n, m) => n + Number(m[1]), 0);
      const tested = (out.match(/testing if [^\n]*parameter/gi) ?? []).length;
      resolve({
        name,
        code,
        timedOut,
        injectable,
        identified,
        requests,
        tested,
        seconds: (Date.now() - started) / 1000,
        out,
      });
    });
  });
}

const results = [];
for (const t of targets) {
  for (const job of [t, t.extra].filter(Boolean)) {
    if (only && !job.name.includes(only)) continue;
    process.stdout.write(`sqlmap → ${job.name} … `);
    const r = await runSqlmap(job.name, job.args);
    results.push(r);
    console.log(
      `${r.timedOut ? 'OUT OF TIME' : r.injectable.length || r.identified ? 'INJECTABLE' : 'clean'} ` +
        `(${r.tested} parameters, ${r.requests} refused payloads, ${r.seconds.toFixed(0)} s)`,
    );
    if (r.injectable.length || r.identified || r.timedOut || process.env.SQLMAP_VERBOSE)
      console.log(r.out.split('\n').slice(-60).join('\n'));
  }
}

cleanup(server);
const bad = results.filter((r) => r.injectable.length || r.identified);
const unfinished = results.filter((r) => r.timedOut);
console.log(
  `sqlmap: ${results.length} targets at level 5, risk 3: ${bad.length ? bad.flatMap((r) => r.injectable).length || bad.length : 0} injectable parameters` +
    (unfinished.length ? `; ${unfinished.length} target(s) ran out of time (${budget} s each)` : ''),
);
process.exit(bad.length || unfinished.length ? 1 : 0);
