#!/usr/bin/env node
// `npm test`: every check, in order, stopping at the first failure. The PostgreSQL run and the browser
// tests are part of it and fail loudly (never skip) when PostgreSQL or Chromium is missing.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const steps = [
  ['lint', 'npm', ['run', 'lint', '--silent']],
  ['typecheck', 'npm', ['run', 'typecheck', '--silent']],
  [
    'unit and API tests (embedded PGlite)',
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'contracts',
      '--project',
      'bench',
      '--project',
      'web',
      '--project',
      'server',
    ],
  ],
  [
    'API tests (PostgreSQL server)',
    'node',
    ['scripts/with-pg-database.mjs', 'npx', 'vitest', 'run', '--project', 'server'],
  ],
  ['build the web app', 'npm', ['run', 'build', '--silent']],
  ['browser tests (Chromium)', 'npx', ['vitest', 'run', '--project', 'e2e']],
  // Fails only when a figure is more than 3x worse than bench/results/quick-baseline.json (docs/PERFORMANCE.md).
  ['benchmark (quick)', 'npm', ['run', 'bench', '--silent', '--', '--quick']],
];
const only = process.argv[2];
for (const [name, cmd, args] of steps) {
  if (only && !name.includes(only)) continue;
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
  console.log(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
