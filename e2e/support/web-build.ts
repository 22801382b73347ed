import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * The browser tests run against the built web app. `npm test` builds apps/web/dist before the e2e step;
 * when a test file runs on its own and dist is missing or older than the sources, the app is built into
 * a private folder under the OS temp dir instead (keyed by the sources' fingerprint), so several people
 * running browser tests at once never overwrite each other's build or the shared dist.
 */

export const repoRoot = path.resolve(import.meta.dirname, '../..');
const webDir = path.join(repoRoot, 'apps/web');
const sharedDist = path.join(webDir, 'dist');
const sourceRoots = [webDir, path.join(repoRoot, 'packages/contracts')];

function walk(dir: string, out: { file: string; mtime: number; size: number }[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    // Tests never reach the bundle; editing one must not force a rebuild.
    else if (!/\.test\.tsx?$/.test(entry.name)) {
      const st = fs.statSync(p);
      out.push({ file: p, mtime: st.mtimeMs, size: st.size });
    }
  }
}

function sources() {
  const files: { file: string; mtime: number; size: number }[] = [];
  for (const root of sourceRoots) walk(root, files);
  return files.sort((a, b) => a.file.localeCompare(b.file));
}

let cached: string | null = null;

/** A folder holding an up-to-date build of the web app (index.html + assets); builds one when needed. */
export function ensureWebBuild(): string {
  if (cached) return cached;
  const override = process.env.E2E_WEB_DIST;
  if (override) {
    if (!fs.existsSync(path.join(override, 'index.html'))) throw new Error(`E2E_WEB_DIST has no index.html`);
    return (cached = path.resolve(override));
  }
  const files = sources();
  const newest = Math.max(...files.map((f) => f.mtime));
  const sharedIndex = path.join(sharedDist, 'index.html');
  if (fs.existsSync(sharedIndex) && fs.statSync(sharedIndex).mtimeMs >= newest) return (cached = sharedDist);

  const fingerprint = createHash('sha256')
    .update(files.map((f) => `${f.file}:${f.mtime}:${f.size}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const target = path.join(os.tmpdir(), `opp-e2e-web-${fingerprint}`);
  if (fs.existsSync(path.join(target, 'index.html'))) return (cached = target);

  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-e2e-web-build-'));
  const vite = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [vite, 'build', '--outDir', staging, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: webDir,
      encoding: 'utf8',
      // A production build, as `npm run build` makes: under Vitest NODE_ENV is `test`, which gave the
      // painter development JSX calls into React's production build, and every painted page failed.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  if (r.status !== 0) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error(`Building the web app for the browser tests failed:\n${r.stdout}\n${r.stderr}`);
  }
  try {
    fs.renameSync(staging, target);
  } catch {
    // Another run built the same sources first; theirs is as good as ours.
    fs.rmSync(staging, { recursive: true, force: true });
  }
  console.log(`[e2e] built the web app into ${target} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return (cached = target);
}
