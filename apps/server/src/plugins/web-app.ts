import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  BANNER_FULL_MEDIA,
  BANNER_SOURCES,
  bannerLabel,
  fileImageUrl,
  imageAtWidthUrl,
  PublicClient,
  townName,
  type ErrorBody,
} from '@opp/contracts';
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

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Where index.html's static shell may take a town page's first content (apps/web/index.html). */
const STATIC_PAGE_MARK = '<!--opp-static-page-->';

/**
 * The home page's heading and introduction as its route renders them (apps/web/src/app/routes/public/
 * home.tsx; change one, change the other), painted with the shell: the introduction is the page's
 * largest element. The community picker needs the app and the API, so it comes with the app.
 */
const STATIC_HOME_PAGE =
  '<main id="main-content" tabindex="-1" class="opp-main"><div class="opp-home">' +
  '<section class="opp-home__panel" aria-labelledby="find-heading">' +
  '<h1 id="find-heading" class="opp-home__heading">Find A Property</h1>' +
  '<p class="opp-home__intro">Choose a region and a community to search its public property records. No account is needed.</p>' +
  '</section></div></main>';

/** features/search SearchBar's icon (components/ui/icons.tsx SearchIcon), for the painted copy below. */
const SEARCH_ICON =
  '<svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false" class="opp-icon">' +
  '<path d="M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19l-4.99-5zm-6 0C7.01 14 5 11.99 5 9.5S7.01 5 9.5 5 14 7.01 14 9.5 11.99 14 9.5 14z"/></svg>';

/** Where the painted search box is: SearchBar takes over what was typed in it (features/search). */
const STATIC_QUERY_ID = 'opp-static-q';

/**
 * The search page's search box as SearchBar renders it, painted with the shell: on a town without a
 * banner its label is the page's largest text, which must not wait for the app. Until the app takes
 * over it is a plain GET form to the same page (`?q=`, which the app reads), so it already works.
 */
function staticSearchForm(searchPath: string, query: string): string {
  return (
    `<div class="opp-search"><form class="opp-searchbar" role="search" aria-label="Property search" action="${escapeHtml(searchPath)}" method="get">` +
    `<label class="usa-label opp-searchbar__label" for="${STATIC_QUERY_ID}">Search by owner, address, map/lot or account</label>` +
    `<div class="opp-searchbar__row"><div class="opp-combobox">` +
    `<input id="${STATIC_QUERY_ID}" class="usa-input opp-searchbar__input" type="search" name="q" autocomplete="off" spellcheck="false" maxlength="200" value="${escapeHtml(query)}">` +
    `</div><button type="submit" class="usa-button opp-searchbar__submit">${SEARCH_ICON}<span>Search</span></button></div>` +
    `</form></div>`
  );
}

/**
 * A town page's first content, painted with the shell before any script runs: the town's heading as
 * TownHeading renders it (search: an h1; record: a p), then `content` (the search box; the record's
 * heading). The banner, or else the search box's label or the record's address, is those pages' largest
 * element, so it no longer waits for the app. React replaces the shell with the same elements in the
 * same place.
 */
function staticTownPage(town: PublicClient, isRecord: boolean, content: string): string {
  const tag = isRecord ? 'p' : 'h1';
  let heading: string;
  if (town.BannerImage) {
    const banner = fileImageUrl(town.BannerImage);
    heading =
      `<div class="opp-town opp-town--banner"><${tag} class="opp-town__heading"><picture>` +
      BANNER_SOURCES.map(
        (s) => `<source media="${s.media}" srcset="${imageAtWidthUrl(banner, s.width)}">`,
      ).join('') +
      `<img class="opp-town__banner" src="${banner}" alt="${escapeHtml(bannerLabel(town))}" fetchpriority="high">` +
      `</picture></${tag}></div>`;
  } else
    heading = `<div class="opp-town"><${tag} class="opp-town__heading">${escapeHtml(townName(town))}</${tag}></div>`;
  return (
    `<main id="main-content" tabindex="-1" class="opp-main"><div class="opp-container${isRecord ? ' opp-record' : ''}">` +
    `${heading}${content}</div></main>`
  );
}

/** A record's heading as PropertyHeader renders it (the rest of the record comes with the app). */
const staticRecordHeading = (heading: string) =>
  '<div class="opp-record-head"><div class="opp-record-head__main"><div class="opp-record-head__title">' +
  `<h1 class="opp-record-head__address">${escapeHtml(heading)}</h1></div></div></div>`;

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
 * downloads beside the scripts.
 */
export const webAppPlugin = fp(
  async (app: FastifyInstance) => {
    const dist = app.config.webDist;
    const hasWeb = dist !== null && fs.existsSync(path.join(dist, 'index.html'));
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
      const content = isRecord
        ? heading === null
          ? ''
          : staticRecordHeading(heading)
        : staticSearchForm(
            `/${encodeURIComponent(state)}/${encodeURIComponent(city)}/search`,
            (new URL(request.url, 'http://x').searchParams.get('q') ?? '').slice(0, 200),
          );
      // Replaced by functions: a replacement string would read `$'` or `$&` in a town's name or a typed
      // query as the page's own text.
      page = insertAfterTitle(page, first.join('')).replace('</head>', () => `${head.join('')}</head>`);
      page = page.replace(STATIC_PAGE_MARK, () => staticTownPage(town, isRecord, content));
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
        return sendPage(
          request,
          reply,
          indexHtml.replace(STATIC_PAGE_MARK, () => STATIC_HOME_PAGE),
        );
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web-app' },
);
