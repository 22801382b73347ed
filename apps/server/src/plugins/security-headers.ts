import cors from '@fastify/cors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/*
 * Response headers that make the browser enforce what the server means (helmet, with the portal's
 * own content security policies), and CORS (@fastify/cors).
 *
 * The web app's build has no inline scripts, so `script-src 'self'` holds. Styles need 'unsafe-inline':
 * react-hot-toast injects a <style> element at run time. Inline styles cannot run code, so that is the
 * cheap side of the trade. API answers (JSON, images) get a policy that allows nothing at all, so an
 * uploaded file opened directly can never run script or be framed. /api/docs keeps swagger-ui's own
 * static policy (hashes of its two scripts), tightened by `hardenDocsCsp`.
 */

export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The app's policy with the base map's tile server allowed as an image source (MAP_TILES_URL; a
 * `{s}` subdomain placeholder becomes a wildcard). No tile server: APP_CSP itself.
 */
export function appCspWithTiles(tilesUrl: string): string {
  const m = /^(https?:\/\/[^/]+)/.exec(tilesUrl);
  if (!m) return APP_CSP;
  const origin = m[1]!.replace(/\{s\}/g, '*').replace(/\{[^}]*\}/g, '*');
  return APP_CSP.replace("img-src 'self' data: blob:", `img-src 'self' data: blob: ${origin}`);
}

export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const CORS_HEADERS = ['Authorization', 'Content-Type'];

/**
 * swagger-ui's static CSP allows framing by the same origin and upgrades requests to HTTPS; the portal
 * forbids framing everywhere, and upgrading only makes sense when the portal is served over HTTPS.
 */
export function hardenDocsCsp(policy: string, https = false): string {
  let out = policy.replace(/frame-ancestors [^;]*/, "frame-ancestors 'none'");
  if (!https) out = out.replace(/\s*upgrade-insecure-requests;?/, '');
  return out.trim();
}

/** A request with a bearer token, or the sign-in that answers one. */
function carriesCredentials(request: FastifyRequest): boolean {
  return (
    Boolean(request.headers.authorization) ||
    (request.method === 'POST' && request.routeOptions.url === '/api/login')
  );
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/**
 * The headers a helmet middleware sets, worked out once: they do not depend on the request (no CSP
 * nonces here), and setting them one by one on every response, as the middleware (and
 * @fastify/helmet, which also makes the middleware again each time) does, cost a record read a fifth
 * of its time.
 */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

const isPreflight = (request: FastifyRequest) =>
  request.method === 'OPTIONS' && typeof request.headers['access-control-request-method'] === 'string';

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const allowed = new Set(app.config.corsOrigins.map((o) => o.replace(/\/+$/, '').toLowerCase()));
    const appCsp = appCspWithTiles(app.config.mapTilesUrl);
    /** The request's Origin when CORS allows it (API paths only). */
    const allowedOrigin = (request: FastifyRequest): boolean => {
      const origin = request.headers.origin;
      return isApiPath(request.url) && typeof origin === 'string' && allowed.has(origin.toLowerCase());
    };

    // The headers every answer carries, helmet's set: nosniff, no framing, the referrer rule, HSTS when
    // configured (the portal behind HTTPS), a same-origin opener. The policy is the portal's own, set
    // below by path; files stay embeddable by the town's own site (no cross-origin resource policy).
    const standard = headersOf(
      helmet({
        contentSecurityPolicy: false,
        crossOriginResourcePolicy: false,
        xFrameOptions: { action: 'deny' },
        referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
        strictTransportSecurity: app.config.hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      }),
    );

    app.addHook('onRequest', async (request, reply) => {
      const api = isApiPath(request.url);
      reply.headers(standard);
      reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
      reply.header('content-security-policy', api ? API_CSP : appCsp);
      if (!api) return;
      // Set early too, so an answer that ends in onRequest (a refused preflight, a 401) carries it.
      if (carriesCredentials(request)) reply.header('cache-control', 'no-store');
      // A preflight from an origin CORS does not allow is refused outright: the browser would block the
      // request it asks about anyway.
      if (isPreflight(request) && !allowedOrigin(request))
        return reply.status(403).header('cache-control', 'no-store').send();
    });

    // CORS for the configured origins, on the API only; none configured, none at all. Bearer tokens
    // travel in a header, never in cookies: credentials mode stays off.
    if (allowed.size > 0)
      await app.register(cors, {
        delegator: (request, callback) =>
          callback(null, {
            origin: allowedOrigin(request),
            methods: CORS_METHODS,
            allowedHeaders: CORS_HEADERS,
            exposedHeaders: ['Retry-After', 'Content-Disposition'],
            maxAge: 600,
          }),
      });

    // The last word on caching: no answer to a signed-in request, and no sign-in answer (it carries the
    // token), may be kept by a browser or a proxy, whatever a handler set (e.g. `private, no-cache`).
    app.addHook('onSend', async (request, reply, payload) => {
      if (isApiPath(request.url) && carriesCredentials(request)) reply.header('cache-control', 'no-store');
      return payload;
    });
  },
  { name: 'security-headers' },
);
