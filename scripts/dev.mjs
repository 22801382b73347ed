#!/usr/bin/env node
// `npm run dev`: the portal server (API on 8086) and Vite's dev server (5173, proxying /api) together.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const children = [
  spawn(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', 'apps/server/src/main.ts', 'serve'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, WEB_DIST: '' },
    },
  ),
  spawn('npm', ['run', 'dev', '-w', '@opp/web'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    if (code) {
      stop();
      process.exitCode = code;
    }
  });
