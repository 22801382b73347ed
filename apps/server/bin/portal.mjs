#!/usr/bin/env node
// The `portal` command: runs the TypeScript entry point through tsx (see docs/decisions/0003-run-server-with-tsx.md).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MALLOC_ENV } from './malloc-env.mjs';

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const result = spawnSync(process.execPath, [tsx, main, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...MALLOC_ENV, ...process.env },
});
process.exit(result.status ?? 1);
