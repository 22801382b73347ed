import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchOptions } from '../../e2e/support/chromium.ts';
import { benchServerEnv, ROOT, startBenchServer } from './server-process.ts';

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
/** The app proper: the entry imports it at once (apps/web/src/main.tsx), so it is loaded on every page. */
const MOUNT_SOURCE = 'src/app/mount.tsx';
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
  // The page's entries: the app's (index.html) and the script that asks for it after the first paint.
  const entryKeys = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
  if (!entryKeys.includes('index.html')) throw new Error('the web build has no entry chunk');
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
    for (const entry of entryKeys) closure(entry, keys);
    // Loaded on every page, though imported dynamically.
    if (manifest[MOUNT_SOURCE]) closure(MOUNT_SOURCE, keys);
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
    /** Lighthouse's own failure to record the page (e.g. NO_NAVSTART), which it says to retry. */
    runtimeError?: { code: string; message: string };
  };
}

/**
 * Lighthouse 12 with its default (mobile, simulated throttling) settings, driving Debian's Chromium.
 * It is installed in the e2e workspace, so it is resolved from there.
 */
export async function runLighthouse(
  pages: Array<{ page: string; url: string }>,
  /** Runs per page; the one with the median performance score is reported (Lighthouse's own advice). */
  runs = 1,
): Promise<LighthouseFigure[]> {
  const require = createRequire(path.join(ROOT, 'e2e/package.json'));
  const lighthouse = (await import(require.resolve('lighthouse'))) as {
    default: (url: string, flags: object) => Promise<LhResult | undefined>;
  };
  const launcher = (await import(require.resolve('chrome-launcher'))) as {
    launch: (o: object) => Promise<{ port: number; kill: () => Promise<void> | void }>;
  };
  // The browser tests' Chromium, started the same way (e2e/support/chromium.ts).
  const { executablePath, args } = launchOptions();
  const chrome = await launcher.launch({
    chromePath: executablePath,
    chromeFlags: ['--headless=new', ...args],
  });
  const out: LighthouseFigure[] = [];
  try {
    for (const { page, url } of pages) {
      const tries: LighthouseFigure[] = [];
      for (let run = 0; run < runs; run++) tries.push(await audit(page, url));
      tries.sort((a, b) => a.performance - b.performance);
      out.push(tries[Math.floor(tries.length / 2)]!);
    }
  } finally {
    await chrome.kill();
  }
  return out;

  async function audit(page: string, url: string): Promise<LighthouseFigure> {
    let r: LhResult | undefined;
    // A trace Lighthouse failed to record says nothing about the page; Lighthouse's advice is to run
    // it again.
    for (let attempt = 1; attempt <= 3; attempt++) {
      r = await lighthouse.default(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      if (!r?.lhr.runtimeError) break;
    }
    if (!r) throw new Error(`Lighthouse returned nothing for ${url}`);
    // The whole report, for finding out why a score is what it is (open it in the Lighthouse viewer).
    const reportDir = process.env.BENCH_LIGHTHOUSE_DIR;
    if (reportDir) {
      fs.mkdirSync(reportDir, { recursive: true });
      fs.writeFileSync(path.join(reportDir, `${page.replace(/\W+/g, '-')}.json`), JSON.stringify(r.lhr));
    }
    const { categories, audits } = r.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const failing = ['accessibility', 'best-practices'].flatMap((cat) =>
      (categories[cat]?.auditRefs ?? [])
        .filter((a) => a.weight > 0 && audits[a.id]?.score !== null && (audits[a.id]?.score ?? 1) < 1)
        .map((a) => `${cat}: ${audits[a.id]!.title}`),
    );
    return {
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
    };
  }
}

/** The demo towns' database for a web-only run (bench/.cache/web-demo), made once with `portal demo`. */
const WEB_DEMO_DIR = path.join(ROOT, 'bench/.cache/web-demo');

/** The migrations and the demo's code: when either changes, the demo database is made again. */
function demoKey(): string {
  const h = createHash('sha256');
  for (const dir of ['apps/server/migrations', 'apps/server/src/features/demo'])
    for (const f of fs.readdirSync(path.join(ROOT, dir)).sort())
      h.update(f).update(fs.readFileSync(path.join(ROOT, dir, f)));
  return h.digest('hex').slice(0, 16);
}

function ensureDemoData(log: (s: string) => void): void {
  const key = demoKey();
  const ready = path.join(WEB_DEMO_DIR, '.ready');
  if (fs.existsSync(ready) && fs.readFileSync(ready, 'utf8') === key) return;
  log('  creating the demo towns for Lighthouse (portal demo)');
  fs.rmSync(WEB_DEMO_DIR, { recursive: true, force: true });
  fs.mkdirSync(WEB_DEMO_DIR, { recursive: true });
  const main = path.join(ROOT, 'apps/server/src/main.ts');
  const r = spawnSync(process.execPath, ['--import', 'tsx', main, 'demo'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: WEB_DEMO_DIR, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`portal demo failed (exit ${r.status})`);
  fs.writeFileSync(ready, key);
}

/**
 * `npm run bench -- --web-only`: the web build, bundle sizes and Lighthouse on the demo towns (Harrison,
 * 1,500 parcels, with a banner; Bridgton, without) served by the real server on the embedded engine: minutes instead of the
 * full data set's hours, for iterating on the web figures. Returns the exit code.
 */
export async function runWebOnly(log: (s: string) => void): Promise<number> {
  log('\n== web (demo data) ==');
  const seconds = buildWeb(log);
  const bundles = analyzeBundles(seconds);
  for (const b of bundles.routes)
    log(
      `  ${b.route.padEnd(9)} initial JS ${b.jsGzipKb} KB gzip, CSS ${b.cssGzipKb} KB gzip (${b.files.length} files)${b.adminFiles.length ? ` ADMIN: ${b.adminFiles.join(', ')}` : ''}`,
    );
  ensureDemoData(log);
  const server = await startBenchServer(benchServerEnv({ DATA_DIR: WEB_DEMO_DIR, WEB_DIST }));
  try {
    const town = `${server.url}/Maine/Harrison`;
    const pages = [
      { page: 'home', url: `${server.url}/` },
      { page: 'results', url: `${town}/search` },
      // A town without a banner, like the full run's county: its largest element is text.
      { page: 'results, no banner', url: `${server.url}/Maine/Bridgton/search` },
      { page: 'record', url: `${town}/500` },
    ];
    log('  Lighthouse (mobile) on home, results and record pages');
    const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS) || 3;
    log(`  (the median of ${runs} runs per page; BENCH_LIGHTHOUSE_RUNS changes it)`);
    const figures = await runLighthouse(pages, runs);
    for (const l of figures)
      log(
        `    ${l.page.padEnd(8)} perf ${l.performance}  a11y ${l.accessibility}  bp ${l.bestPractices}  LCP ${l.lcpMs} ms  CLS ${l.cls}  TBT ${l.tbtMs} ms  ${l.transferKb} KB${l.failing.length ? `  failing: ${l.failing.join('; ')}` : ''}`,
      );
    const missed = figures.filter(
      (l) =>
        l.performance < 95 ||
        l.accessibility < 100 ||
        l.bestPractices < 95 ||
        l.lcpMs > 2000 ||
        l.cls > 0.05 ||
        l.tbtMs > 100,
    );
    const heavy = bundles.routes.filter((b) => b.jsGzipKb > 130 || b.adminFiles.length > 0);
    return missed.length || heavy.length ? 1 : 0;
  } finally {
    await server.stop();
  }
}
