import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { build, defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';

const SRC = path.resolve(import.meta.dirname, 'src');

/** Every word-like token in the app's sources and index.html: the class names the app can ever use. */
function sourceTokens(): Set<string> {
  const tokens = new Set<string>();
  const add = (text: string) => {
    for (const t of text.match(/[A-Za-z][\w:-]*/g) ?? []) tokens.add(t);
  };
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(tsx?|css)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) add(fs.readFileSync(p, 'utf8'));
    }
  };
  walk(SRC);
  add(fs.readFileSync(path.resolve(import.meta.dirname, 'index.html'), 'utf8'));
  return tokens;
}

/** Removes the argument lists of :not(), :is(), :where() and :has(), balanced parentheses included. */
function withoutPseudoArguments(selector: string): string {
  let out = '';
  for (let i = 0; i < selector.length; i++) {
    const m = /^:(not|is|where|has)\(/.exec(selector.slice(i));
    if (!m) {
      out += selector[i];
      continue;
    }
    let depth = 0;
    let j = i + m[0].length - 1;
    for (; j < selector.length; j++) {
      if (selector[j] === '(') depth++;
      else if (selector[j] === ')' && --depth === 0) break;
    }
    i = j;
  }
  return out;
}

interface CssNode {
  type: string;
  source?: { input?: { file?: string } };
  parent?: CssNode;
}
interface CssRule extends CssNode {
  selectors: string[];
  remove(): void;
}
interface CssAtRule extends CssNode {
  name: string;
  nodes?: CssNode[];
  remove(): void;
  walkDecls(prop: string, cb: (d: { value: string }) => void): void;
}
interface CssDecl extends CssNode {
  value: string;
}
interface CssRoot {
  walkRules(cb: (rule: CssRule) => void): void;
  walkAtRules(cb: (rule: CssAtRule) => void): void;
  walkDecls(prop: string, cb: (decl: CssDecl) => void): void;
}

/*
 * The app uses a few dozen of USWDS's ~6,000 rules (554 KB; 99 % unused on a public page, and render
 * blocking). USWDS's per-component packages need a Sass build; instead, a rule of USWDS's compiled CSS
 * is kept only when every class its selector requires appears somewhere in the app's sources (classes
 * are always written out in full, also in template strings). Only USWDS's rules are filtered, never the
 * app's own (docs/decisions/0008-web-performance.md).
 */
/*
 * USWDS's web fonts (Source Sans Pro, Merriweather, Roboto Mono: 42 KB on every page, fetched beside the
 * page's script and images) give way to each device's own fonts, which USWDS supports as its "system"
 * typeface: on a slow phone connection they were a fifth of a public page's bytes and held back its
 * largest image (docs/decisions/0008-web-performance.md).
 */
const SYSTEM_SANS = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif';
const WEB_FONTS: Array<[RegExp, string]> = [
  [/^"?Source Sans Pro Web"?(,|$)/, SYSTEM_SANS],
  [/^"?Merriweather Web"?(,|$)/, 'Georgia,Cambria,"Times New Roman",Times,serif'],
  [/^"?Roboto Mono Web"?(,|$)/, 'ui-monospace,Consolas,"Liberation Mono",monospace'],
];

function systemFonts(family: string): string {
  for (const [web, system] of WEB_FONTS) if (web.test(family)) return system;
  return family;
}

function uswdsPurge(): { postcssPlugin: string; Once(root: CssRoot): void } {
  const tokens = sourceTokens();
  const fromUswds = (n: CssNode) => n.source?.input?.file?.includes(`${path.sep}@uswds${path.sep}`) ?? false;
  const used = (selector: string) =>
    (withoutPseudoArguments(selector).match(/\.[A-Za-z_][\w-]*(?:\\:[\w-]+)*/g) ?? []).every((c) =>
      tokens.has(c.slice(1).replace(/\\:/g, ':')),
    );
  return {
    postcssPlugin: 'opp-uswds-purge',
    Once(root) {
      root.walkRules((rule) => {
        if (
          !fromUswds(rule) ||
          (rule.parent?.type === 'atrule' && /keyframes$/.test((rule.parent as CssAtRule).name))
        )
          return;
        const keep = rule.selectors.filter(used);
        if (keep.length === 0) rule.remove();
        else if (keep.length < rule.selectors.length) rule.selectors = keep;
      });
      root.walkAtRules((at) => {
        if (!fromUswds(at)) return;
        if ((at.name === 'media' || at.name === 'supports') && !at.nodes?.length) at.remove();
        if (at.name === 'font-face') at.remove();
      });
      root.walkDecls('font-family', (d) => {
        if (!fromUswds(d)) return;
        d.value = systemFonts(d.value);
      });
    },
  };
}

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `.br` and `.gz` beside every text file of the build, compressed once at the highest levels, so
 * the server sends them without compressing per request (apps/server/src/plugins/web-app.ts).
 */
function precompress(): Plugin {
  return afterBuild('opp-precompress', async (outDir) => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.name.startsWith('.')) continue;
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (COMPRESSIBLE.test(e.name)) files.push(p);
      }
    };
    walk(outDir);
    await Promise.all(
      files.map(async (file) => {
        const raw = await fs.promises.readFile(file);
        const [br, gz] = await Promise.all([
          brotli(raw, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gzip(raw, { level: 9 }),
        ]);
        // A tiny file can grow when compressed; then the original is what gets sent.
        if (br.length < raw.length) await fs.promises.writeFile(`${file}.br`, br);
        if (gz.length < raw.length) await fs.promises.writeFile(`${file}.gz`, gz);
      }),
    );
  });
}

/** A build plugin that works on the written build (in `outDir`) once the bundle is closed. */
function afterBuild(name: string, closeBundle: (outDir: string) => Promise<unknown>): Plugin {
  let outDir = '';
  return {
    name,
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await closeBundle(outDir);
    },
  };
}

/** The app proper, which the entry (main.tsx) imports after the first paint. */
const MOUNT_MODULE = '/src/app/mount.tsx';

const PUBLIC_ROUTES = {
  home: '/src/app/routes/public/home.tsx',
  search: '/src/app/routes/public/search.tsx',
  property: '/src/app/routes/public/property.tsx',
};

/**
 * `modulepreload` for the public routes' chunks, so they download beside the entry instead of after it
 * has run (a round trip and more on a slow phone). index.html preloads the app proper (app/mount.tsx,
 * which the entry imports) and the home route's chunks (the public layout is among them, shared by
 * every public page); the search and record pages' own chunks are listed in
 * `.vite/route-preloads.json`, which the server adds to the HTML of a town's pages
 * (apps/server/src/plugins/web-app.ts). The page asks for all of them only after its first paint
 * (scriptsAfterPaint).
 */
function preloadPublicRoutes(): Plugin {
  let outDir = '';
  let perRoute: Record<string, string[]> = {};
  return {
    name: 'opp-preload-public-routes',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const closure = (file: string, into = new Set<string>()) => {
          const c = bundle[file];
          if (!c || c.type !== 'chunk' || into.has(file)) return into;
          into.add(file);
          for (const i of c.imports) closure(i, into);
          return into;
        };
        const entry = chunks.find((c) => c.isEntry);
        if (!entry) return [];
        const loaded = closure(entry.fileName);
        const chunkOf = (module: string) =>
          chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(module));
        // Every page runs the app proper, imported by the entry once the page has been painted.
        const mount = chunkOf(MOUNT_MODULE);
        const boot = mount ? closure(mount.fileName) : new Set<string>();
        for (const f of loaded) boot.delete(f);
        const files = (route: string) => {
          const chunk = chunkOf(route);
          return chunk ? [...closure(chunk.fileName)].filter((f) => !loaded.has(f) && !boot.has(f)) : [];
        };
        const home = files(PUBLIC_ROUTES.home);
        perRoute = {
          search: files(PUBLIC_ROUTES.search)
            .filter((f) => !home.includes(f))
            .map((f) => `/${f}`),
          property: files(PUBLIC_ROUTES.property)
            .filter((f) => !home.includes(f))
            .map((f) => `/${f}`),
        };
        return [...boot, ...home].map((f) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${f}` },
          injectTo: 'head' as const,
        }));
      },
    },
    writeBundle() {
      fs.mkdirSync(path.join(outDir, '.vite'), { recursive: true });
      fs.writeFileSync(
        path.join(outDir, '.vite/route-preloads.json'),
        `${JSON.stringify(perRoute, null, 2)}\n`,
      );
    },
  };
}

const START_MODULE = '/src/start-after-paint.ts';

/**
 * The app's scripts are asked for only once the page has been painted (src/start-after-paint.ts): the
 * entry's `<script>` and Vite's `modulepreload` links leave index.html for a JSON data block, and the
 * start script, which imports nothing, takes their place. The server lists a town page's route chunks in
 * a block of its own (apps/server/src/plugins/web-app.ts).
 */
function scriptsAfterPaint(html: string, bundle: Rolldown.OutputBundle): string {
  const start = Object.values(bundle).find(
    (c) => c.type === 'chunk' && c.facadeModuleId?.replaceAll('\\', '/').endsWith(START_MODULE),
  );
  if (!start || start.type !== 'chunk' || start.imports.length > 0)
    throw new Error(`${START_MODULE} must be built as a chunk of its own that imports nothing`);
  let entry: string | null = null;
  const preload: string[] = [];
  const page = html
    .replace(
      /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\s*/,
      (_tag, src: string) => {
        entry = src;
        return '';
      },
    )
    .replace(
      /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\s*/g,
      (_tag, href: string) => {
        preload.push(href);
        return '';
      },
    );
  if (!entry) throw new Error('index.html has no entry script to start after the paint');
  // A tag in another form than the two above would be fetched before the paint, unnoticed.
  if (/<script type="module"|rel="modulepreload"/.test(page))
    throw new Error('index.html asks for a script before the paint that scriptsAfterPaint did not move');
  const scripts = JSON.stringify({ entry, preload });
  return page.replace(
    '</body>',
    () =>
      `<script type="application/json" id="opp-app-scripts">${scripts}</script>` +
      `<script type="module" crossorigin src="/${start.fileName}"></script></body>`,
  );
}

/**
 * The stylesheet goes into index.html as a <style> element (the CSP allows inline styles): the page's
 * first paint, the server-painted town heading and search box included, then needs the HTML alone
 * instead of waiting for a second request that shares a phone's bandwidth with the scripts. It adds
 * about 10 KB to each compressed HTML page; the app is a single page, so that is once per visit.
 */
function inlineStylesheet(): Plugin {
  return {
    name: 'opp-inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*? href="\/([^"]+\.css)">/g, (link, file: string) => {
          const asset = bundle[file];
          if (!asset || asset.type !== 'asset') return link;
          const css = String(asset.source);
          if (/<\/style/i.test(css)) throw new Error(`${file} cannot be inlined: it holds </style`);
          // The disabled link is never fetched; it tells Vite's loader of lazy routes, which lists this
          // file among their dependencies (they share modules with the entry), that the page has it
          // already. Without it each town page fetched the same 10 KB again, and its route waited for it.
          return `<style>${css}</style><link rel="stylesheet" href="/${file}" disabled>`;
        });
      },
    },
    // After Vite has written its own script and preload tags into the page.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (page?.type === 'asset') page.source = scriptsAfterPaint(String(page.source), bundle);
      },
    },
  };
}

/** Where the painter goes in the build (a dot folder: neither compressed nor served). */
const PAINTER_DIR = '.vite/painter';

/**
 * The painter (src/painted-page.tsx): the components a page paints first, built for Node with everything
 * they use, for the server to render a town page's first content from (apps/server/src/plugins/web-app.ts).
 */
function painter(): Plugin {
  return afterBuild('opp-painter', (outDir) =>
    build({
      configFile: false,
      root: import.meta.dirname,
      logLevel: 'warn',
      publicDir: false,
      plugins: [react()],
      resolve: { alias: { '@': SRC } },
      // React's production build, whatever NODE_ENV the server runs with (its development build is
      // several times slower).
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      ssr: { noExternal: true },
      build: {
        ssr: path.join(SRC, 'painted-page.tsx'),
        outDir: path.join(outDir, PAINTER_DIR),
        emptyOutDir: true,
        rollupOptions: { output: { entryFileNames: 'painted-page.js' } },
      },
    }),
  );
}

export default defineConfig(({ command }) => ({
  plugins: [react(), preloadPublicRoutes(), inlineStylesheet(), precompress(), painter()],
  resolve: { alias: { '@': SRC } },
  css: { postcss: { plugins: command === 'build' ? [uswdsPurge()] : [] } },
  server: {
    port: 5173,
    // The dev server forwards API calls to the portal server (npm run dev starts both).
    proxy: { '/api': 'http://localhost:8086' },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      // The page and the one script it asks for before its first paint (scriptsAfterPaint).
      input: {
        index: path.resolve(import.meta.dirname, 'index.html'),
        start: path.join(SRC, 'start-after-paint.ts'),
      },
      output: {
        // The libraries every public page runs, in one chunk rather than a dozen pieces split by who
        // imports them: each file compresses on its own, so the pieces cost about 3 KB more in all.
        // Not react-hot-toast (and goober, its styling): only the admin screens toast (app/provider.tsx).
        // React and its renderer are CommonJS, initialised on first use, so sharing the chunk with the
        // entry does not move their start-up work ahead of the first paint.
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/,
            },
          ],
        },
      },
    },
  },
}));
