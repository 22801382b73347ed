#!/usr/bin/env node
// `npm run build`: the server (apps/server/dist) and the web app (apps/web/dist).
// `--if-stale` (npm start, npm run portal): only those whose sources changed since their last build, so
// a fresh clone's `npm install && npm start` builds both and a later start builds nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const contracts = path.join(root, 'packages/contracts');
const TARGETS = [
  {
    name: 'the server',
    workspace: '@opp/server',
    sources: [path.join(root, 'apps/server/src'), path.join(root, 'apps/server/build.mjs'), contracts],
    built: path.join(root, 'apps/server/dist/main.js'),
  },
  {
    name: 'the web app',
    workspace: '@opp/web',
    sources: [path.join(root, 'apps/web'), contracts],
    built: path.join(root, 'apps/web/dist/index.html'),
  },
];

function newestMtime(file) {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(file)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

const isStale = ({ sources, built }) =>
  !fs.existsSync(built) || Math.max(...sources.map(newestMtime)) > fs.statSync(built).mtimeMs;

const ifStale = process.argv.includes('--if-stale');
for (const target of TARGETS) {
  if (ifStale && !isStale(target)) continue;
  if (ifStale) console.log(`Building ${target.name}…`);
  const r = spawnSync('npm', ['run', 'build', '-w', target.workspace, '--silent'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
