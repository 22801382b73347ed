#!/usr/bin/env node
// `npm run build -w @opp/server`: the server as JavaScript in dist/ (decision 0015). One script per entry,
// each with the project's own code (the server's and the contracts') bundled in and every installed
// package left to Node: dist/main.js (the `portal` command) and one script per worker thread, found in
// the sources by the expression that starts it (`new URL('./<name>.ts', import.meta.url)`, see
// src/lib/thread-start.ts), written beside main.js under its own name.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = import.meta.dirname;
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const THREAD_ENTRY = /new URL\('\.\/([\w.-]+)\.ts', import\.meta\.url\)/g;

/** Every thread module the server's code starts, by its name in dist. */
function threadEntries() {
  const entries = {};
  for (const file of fs.readdirSync(src, { recursive: true })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const text = fs.readFileSync(path.join(src, file), 'utf8');
    for (const [, name] of text.matchAll(THREAD_ENTRY)) {
      const entry = path.join(src, path.dirname(file), `${name}.ts`);
      if (entries[name] && entries[name] !== entry) throw new Error(`two thread modules are named ${name}`);
      entries[name] = entry;
    }
  }
  return entries;
}

/** Installed packages for which `keep` says so stay imports (Node resolves them from node_modules). */
const external = (keep) => ({
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      keep(args.path) ? { path: args.path, external: true } : undefined,
    );
  },
});

const options = {
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};
fs.rmSync(dist, { recursive: true, force: true });
// The server: every installed package stays an import; only the workspace's code is bundled.
await build({
  ...options,
  entryPoints: { main: path.join(src, 'main.ts') },
  plugins: [external((p) => !p.startsWith('@opp/'))],
});
// A thread: one script with its packages too (zod above all), which a thread reads and compiles in one
// go rather than module by module (measured: an import's two threads ready in about half the time).
// PGlite finds its WebAssembly files beside its own modules, so it stays an import.
await build({
  ...options,
  entryPoints: threadEntries(),
  plugins: [external((p) => p.startsWith('@electric-sql/pglite'))],
});
