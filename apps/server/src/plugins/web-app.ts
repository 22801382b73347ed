import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  BANNER_FULL_MEDIA,
  BANNER_SOURCES,
  fileImageUrl,
  imageAtWidthUrl,
  PublicClient,
  type ErrorBody,
} from '@opp/contracts';
import type { PaintedPage, PaintPage } from '@opp/contracts/painted-page';
import type { Executor } from '../db/database.ts';
import type { ClientRow } from '../features/clients/clients.repository.ts';
import { publicClientOf, publicClientsService } from '../features/clients/clients.service.ts';
import { recordHeading } from '../features/properties/properties.service.ts';

/**
 * The town a public page URL names (/{state}/{city}, …/search, …/{account}), as GET /api/client/{id}
 * answers it at this moment, or null (not a town page, unknown or inactive town). Never remembered: an
 * admin's change (a new banner) must show on the next page view, as it does through the API.
 */
async function findTown(db: Executor, url: string): Promise<{ row: ClientRow; town: PublicClient } | null> {
  const parts = url.split('/').filter(Boolean);
  if (parts.length < 2 || parts.length > 3 || parts[0] === 'admin' || parts[2] === 'admin') return null;
  let state: string;
  let city: string;
  try {
    [state, city] = parts.map((p) => decodeURIComponent(p)) as [string, string];
  } catch {
    return null;
  }
  return publicClientsService.findByStateCity(db, state, city).then(
    async (row) => ({ row, town: PublicClient.parse(await publicClientOf(db, row)) }),
    () => null,
  );
}

/** JSON that cannot end the <script> element it sits in. */
const scriptSafeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** Where index.html's shell takes a page's first content (apps/web/index.html). */
const STATIC_PAGE_MARK = '<!--opp-static-page-->';

/**
 * The web app's painter (apps/web/src/painted-page.tsx, built beside the app for Node): a page's first
 * content rendered by the page's own components. Loaded on first use; null when the build has none
 * (nothing is painted then, and the app renders the page as it starts).
 */
function painterOf(dist: string): () => Promise<PaintPage | null> {
  let loading: Promise<PaintPage | null> | null = null;
  return () =>
    (loading ??= import(pathToFileURL(path.join(dist, '.vite/painter/painted-page.js')).href).then(
      (m: { paintPage: PaintPage }) => m.paintPage,
      () => null,
    ));
}

/** `html` with `tags` early in its head: after the title (or the head's opening tag). */
function insertAfterTitle(html: string, tags: string): string {
  const title = html.indexOf('</title>');
  const at = title >= 0 ? title + '</title>'.length : html.indexOf('<head>') + '<head>'.length;
  return html.slice(0, at) + tags + html.slice(at);
}

/**
 * The chunks of the search and record routes, as the build lists them (apps/web/vite.config.ts); only
 * same-origin asset paths are taken, so the file can never inject anything else into the page.
 */
async function readRoutePreloads(dist: string): Promise<{ search: string[]; property: string[] }> {
  const safe = (v: unknown) =>
    Array.isArray(v)
      ? v.filter((f): f is string => typeof f === 'string' && /^\/assets\/[\w.-]+\.js$/.test(f))
      : [];
  try {
    const raw = JSON.parse(
      await fs.promises.readFile(path.join(dist, '.vite/route-preloads.json'), 'utf8'),
    ) as {
      search?: unknown;
      property?: unknown;
    };
    return { search: safe(raw.search), property: safe(raw.property) };
  } catch {
    return { search: [], property: [] };
  }
}

/**
 * One port for the whole portal: /api is the API, every other path is the single-page app
 * (index.html for client-side routes, hashed assets cached for a year). The build writes `.br` and
 * `.gz` beside each text file (apps/web/vite.config.ts); the one the browser accepts is sent as is,
 * with `Vary: Accept-Encoding`, so nothing is compressed per request.
 *
 * A town's pages cannot show anything before the app has looked the town up (two API calls after the
 * scripts have run), and their largest element is its banner. index.html for those pages therefore
 * carries the town as GET /api/client/{id} answers it (a JSON data block, which the app puts in its
 * query cache; not a script, so the CSP holds) and a `<link rel="preload">` of its banner, which then
 * downloads beside the scripts; and the page's first content (the banner, the search box, a record's
 * address), rendered by the web app's own components (its painter), is painted before any script runs.
 */
export const webAppPlugin = fp(
  async (app: FastifyInstance) => {
    const dist = app.config.webDist;
    const hasWeb = dist !== null && fs.existsSync(path.join(dist, 'index.html'));
    const painter = hasWeb ? painterOf(dist!) : async () => null;
    // Loaded once the app is ready rather than by the first town page's visitor (a few hundred ms).
    app.addHook('onReady', async () => void painter());
    /** index.html with the page's first content painted in (as is when there is no painter). */
    const painted = async (html: string, page: PaintedPage) => {
      const paint = await painter();
      if (!paint) return html;
      let content: string;
      try {
        content = paint(page);
      } catch (err) {
        // Only painted: the page works without it, so a painter's failure never fails the page.
        app.log.warn({ err }, 'painting a page failed');
        return html;
      }
      // Replaced by a function: a replacement string would read `$'` or `$&` in a town's name or a typed
      // query as the page's own text.
      return html.replace(STATIC_PAGE_MARK, () => content);
    };
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: dist,
        wildcard: false,
        index: false,
        preCompressed: true,
        setHeaders(res, filePath) {
          res.header(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'no-cache',
          );
        },
      });
    }

    /** The encodings an Accept-Encoding header allows (a `;q=0` refuses one). */
    const accepted = (request: FastifyRequest) =>
      new Set(
        String(request.headers['accept-encoding'] ?? '')
          .split(',')
          .map((part) => part.trim().toLowerCase().split(';'))
          .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
          .map(([name]) => name),
      );

    /** A page of the app (index.html with what was painted into it): small, so compressed here, quickly. */
    const sendPage = (request: FastifyRequest, reply: FastifyReply, page: string) => {
      const html = Buffer.from(page);
      const accepts = accepted(request);
      reply
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
        .type('text/html; charset=utf-8');
      if (accepts.has('br'))
        return reply
          .header('content-encoding', 'br')
          .send(zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
      if (accepts.has('gzip')) return reply.header('content-encoding', 'gzip').send(zlib.gzipSync(html));
      return reply.send(html);
    };

    /** index.html with the town's data, preloads and first content. */
    const sendTownPage = async (
      request: FastifyRequest,
      reply: FastifyReply,
      url: string,
      { row, town }: { row: ClientRow; town: PublicClient },
    ) => {
      // Read per request: a new build in place is served at once (its new assets: see the not-found handler).
      const indexHtml = await fs.promises.readFile(path.join(dist!, 'index.html'), 'utf8');
      const routeChunks = await readRoutePreloads(dist!);
      // What the page's largest element needs (the record, the banner) is asked for first, ahead of the
      // app's scripts in the head, so that on a slow link it is not queued behind them.
      const first: string[] = [];
      const head = [`<script type="application/json" id="opp-town">${scriptSafeJson(town)}</script>`];
      const [state = '', city = '', third] = url
        .split('/')
        .filter(Boolean)
        .map((p) => decodeURIComponent(p));
      const isRecord = third !== undefined && third !== 'search';
      // The route's chunks, for the page's start script to ask for beside the entry once the page has
      // been painted (apps/web/src/start-after-paint.ts), not before.
      head.push(
        `<script type="application/json" id="opp-route-scripts">${scriptSafeJson(isRecord ? routeChunks.property : routeChunks.search)}</script>`,
      );
      // The record itself, at the URL the app will fetch (features/properties/api/get-property.ts).
      if (isRecord)
        first.push(
          `<link rel="preload" as="fetch" crossorigin href="/api/fullproperty/${encodeURIComponent(third)}?${new URLSearchParams({ city, state }).toString().replace(/&/g, '&amp;')}">`,
        );
      let page = indexHtml;
      if (town.BannerImage) {
        // The same choice as the page's <picture> (TownHeading): one preload per screen, the one it uses.
        const banner = fileImageUrl(town.BannerImage);
        for (const source of BANNER_SOURCES)
          first.push(
            `<link rel="preload" as="image" href="${imageAtWidthUrl(banner, source.width)}" media="${source.media}" fetchpriority="high">`,
          );
        first.push(
          `<link rel="preload" as="image" href="${banner}" media="${BANNER_FULL_MEDIA}" fetchpriority="high">`,
        );
      }
      // Only painted: a page never fails for it (an account no roll could hold is not even looked up).
      const heading =
        isRecord && /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(third)
          ? await recordHeading(app.database.db, row, third).catch(() => null)
          : null;
      const query = (new URL(request.url, 'http://x').searchParams.get('q') ?? '').slice(0, 200);
      // Replaced by a function, as in `painted`.
      page = insertAfterTitle(page, first.join('')).replace('</head>', () => `${head.join('')}</head>`);
      page = await painted(
        page,
        isRecord ? { page: 'record', town, heading } : { page: 'search', town, query },
      );
      return sendPage(request, reply, page);
    };

    app.setNotFoundHandler(async (request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      if (
        url === '/api' ||
        url.startsWith('/api/') ||
        !hasWeb ||
        (request.method !== 'GET' && request.method !== 'HEAD')
      ) {
        const body: ErrorBody = {
          statusCode: 404,
          code: 'not_found',
          message: 'Not found',
          error: 'Not found',
        };
        return reply.status(404).send(body);
      }
      // The static routes are the files there were at start; a build made in place since then (`npm run
      // build` while the portal runs) has new ones, which its index.html, read per request, names at
      // once. A file of the assets folder itself is served; anything else under it is a real 404.
      if (url.startsWith('/assets/')) {
        const name = url.slice('/assets/'.length);
        const isFile = /^[\w-]+(\.[\w-]+)+$/.test(name)
          ? await fs.promises.stat(path.join(dist!, 'assets', name)).then(
              (s) => s.isFile(),
              () => false,
            )
          : false;
        if (isFile) return reply.sendFile(`assets/${name}`);
        return reply.status(404).type('text/plain').send('Not found');
      }
      const found = await findTown(app.database.db, url);
      if (found) return sendTownPage(request, reply, url, found);
      if (url === '/') {
        const indexHtml = await fs.promises.readFile(path.join(dist!, 'index.html'), 'utf8');
        return sendPage(request, reply, await painted(indexHtml, { page: 'home' }));
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web-app' },
);
