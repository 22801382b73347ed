import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from './server-process.ts';

/*
 * Web figures: the initial JavaScript of each public route, read from a production build's Vite
 * manifest (gzip level 9, as browsers receive it from a compressing proxy), and Lighthouse scores of the
 * public pages served by the real server.
 */

export const WEB_DIST = path.join(ROOT, 'bench/.cache/web-dist');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface RouteBundle {
  route: string;
  /** Initial JavaScript: the entry and the route's module, each with what it imports statically. */
  jsGzipKb: number;
  cssGzipKb: number;
  files: string[];
  /** Admin route chunks found among this route's initial files (must be empty). */
  adminFiles: string[];
}

export interface WebBundleFigures {
  routes: RouteBundle[];
  adminChunks: string[];
  buildSeconds: number;
}

const PUBLIC_ROUTES: Record<string, string> = {
  home: 'src/app/routes/public/home.tsx',
  search: 'src/app/routes/public/search.tsx',
  property: 'src/app/routes/public/property.tsx',
};
const isAdminSource = (src: string | undefined) =>
  !!src && /(^|\/)routes\/(municipality|provider)-admin\//.test(src);

function webSourceHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const e of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name === 'node_modules' || e.name === 'dist' || e.name.endsWith('.test.tsx')) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else h.update(p).update(fs.readFileSync(p));
    }
  };
  walk(path.join(ROOT, 'apps/web'));
  walk(path.join(ROOT, 'packages/contracts/src'));
  h.update(fs.readFileSync(path.join(ROOT, 'package-lock.json')));
  return h.digest('hex').slice(0, 16);
}

/** Builds the web app into bench/.cache/web-dist (not apps/web/dist, which others use), once per source. */
export function buildWeb(log: (s: string) => void): number {
  const hash = webSourceHash();
  const stamp = path.join(WEB_DIST, '.bench-source');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) {
    log('  reusing the web build (sources unchanged)');
    return 0;
  }
  const started = performance.now();
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const r = spawnSync(
    process.execPath,
    [vite, 'build', '--outDir', WEB_DIST, '--emptyOutDir', '--manifest', '--logLevel', 'warn'],
    { cwd: path.join(ROOT, 'apps/web'), stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`the web build failed (exit ${r.status})`);
  fs.writeFileSync(stamp, hash);
  return Math.round((performance.now() - started) / 100) / 10;
}

const gzipKb = (file: string) =>
  Math.round((gzipSync(fs.readFileSync(path.join(WEB_DIST, file)), { level: 9 }).length / 1024) * 10) / 10;

export function analyzeBundles(buildSeconds: number): WebBundleFigures {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(WEB_DIST, '.vite/manifest.json'), 'utf8'),
  ) as Manifest;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entryKey) throw new Error('the web build has no entry chunk');
  const closure = (key: string, into: Set<string>) => {
    if (into.has(key)) return;
    into.add(key);
    for (const k of manifest[key]?.imports ?? []) closure(k, into);
  };
  const adminChunks = Object.entries(manifest)
    .filter(([, c]) => isAdminSource(c.src))
    .map(([, c]) => c.file);
  const routes: RouteBundle[] = [];
  for (const [route, src] of Object.entries(PUBLIC_ROUTES)) {
    const keys = new Set<string>();
    closure(entryKey, keys);
    if (manifest[src]) closure(src, keys);
    const chunks = [...keys].map((k) => manifest[k]!);
    const files = chunks.map((c) => c.file).filter((f) => f.endsWith('.js'));
    const css = [...new Set(chunks.flatMap((c) => c.css ?? []))];
    routes.push({
      route,
      jsGzipKb: Math.round(files.reduce((t, f) => t + gzipKb(f), 0) * 10) / 10,
      cssGzipKb: Math.round(css.reduce((t, f) => t + gzipKb(f), 0) * 10) / 10,
      files,
      adminFiles: chunks.filter((c) => isAdminSource(c.src)).map((c) => c.file),
    });
  }
  return { routes, adminChunks, buildSeconds };
}

export interface LighthouseFigure {
  page: string;
  url: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** Bytes the page transferred (as the server sends them: compressed or not). */
  transferKb: number;
  /** Failed accessibility / best-practice audits, so a score below target says why. */
  failing: string[];
}

interface LhResult {
  lhr: {
    categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
    audits: Record<string, { score: number | null; numericValue?: number; title: string }>;
  };
}

/**
 * Lighthouse 12 with its default (mobile, simulated throttling) settings, driving Debian's Chromium.
 * It is installed in the e2e workspace, so it is resolved from there.
 */
export async function runLighthouse(
  pages: Array<{ page: string; url: string }>,
): Promise<LighthouseFigure[]> {
  const require = createRequire(path.join(ROOT, 'e2e/package.json'));
  const lighthouse = (await import(require.resolve('lighthouse'))) as {
    default: (url: string, flags: object) => Promise<LhResult | undefined>;
  };
  const launcher = (await import(require.resolve('chrome-launcher'))) as {
    launch: (o: object) => Promise<{ port: number; kill: () => Promise<void> | void }>;
  };
  const chrome = await launcher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const out: LighthouseFigure[] = [];
  try {
    for (const { page, url } of pages) {
      const r = await lighthouse.default(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      if (!r) throw new Error(`Lighthouse returned nothing for ${url}`);
      const { categories, audits } = r.lhr;
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      const failing = ['accessibility', 'best-practices'].flatMap((cat) =>
        (categories[cat]?.auditRefs ?? [])
          .filter((a) => a.weight > 0 && audits[a.id]?.score !== null && (audits[a.id]?.score ?? 1) < 1)
          .map((a) => `${cat}: ${audits[a.id]!.title}`),
      );
      out.push({
        page,
        url,
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? NaN),
        cls: Math.round((audits['cumulative-layout-shift']?.numericValue ?? NaN) * 1000) / 1000,
        tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? NaN),
        transferKb: Math.round((audits['total-byte-weight']?.numericValue ?? NaN) / 1024),
        failing,
      });
    }
  } finally {
    await chrome.kill();
  }
  return out;
}
