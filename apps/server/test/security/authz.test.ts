import { beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { setupTestApp, testEngine } from '../helpers.ts';
import { AUTHZ_MATRIX } from './authz-matrix.ts';
import { CALLERS, buildWorld, changedTables, fingerprint, type World } from './world.ts';

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000, exportRateLimitPerMinute: 1_000_000 });

let w: World;
beforeAll(async () => {
  w = await buildWorld(ctx.app, ctx.db);
}, 120_000);

const ERROR_KEYS = new Set(['statusCode', 'code', 'message', 'error', 'fields']);

/** The /api routes as registered, `METHOD /url`; the catch-all's methods map to its one entry. */
function apiRoutes(): { key: string; method: string; entryKey: string }[] {
  return ctx.app.routeInventory
    .filter((r) => r.url === '/api' || r.url.startsWith('/api/'))
    .map((r) => ({
      key: `${r.method} ${r.url}`,
      method: r.method,
      entryKey: r.url === '/api/*' ? 'ANY /api/*' : `${r.method} ${r.url}`,
    }));
}

describe('access-control matrix', () => {
  it('covers every registered /api route, and no route that is gone', () => {
    const routes = apiRoutes();
    const missing = routes.filter((r) => !AUTHZ_MATRIX[r.entryKey]).map((r) => r.key);
    const stale = Object.keys(AUTHZ_MATRIX).filter((k) => !routes.some((r) => r.entryKey === k));
    expect(missing, 'routes with no row in test/security/authz-matrix.ts').toEqual([]);
    expect(stale, 'rows in authz-matrix.ts for routes that no longer exist').toEqual([]);
  });

  it('gives each of the 6 callers exactly its status; refused calls change nothing and carry no data', async () => {
    const routes = apiRoutes().filter((r) => AUTHZ_MATRIX[r.entryKey]);
    const mismatches: string[] = [];
    const leaks: string[] = [];
    let calls = 0;
    for (const route of routes) {
      const entry = AUTHZ_MATRIX[route.entryKey]!;
      for (const caller of CALLERS) {
        const req = await entry.request(w, caller);
        const headers = { ...(req.headers ?? w.headers[caller]), ...(req.extraHeaders ?? {}) };
        const before = await fingerprint(ctx.db);
        const res = await ctx.app.inject({
          method: route.method as InjectOptions['method'],
          url: req.url,
          headers,
          ...(req.payload === undefined ? {} : { payload: req.payload as InjectOptions['payload'] }),
        });
        calls++;
        await entry.settle?.(w);
        const expected = [entry.expect[caller]].flat();
        const where = `${route.key} as ${caller} → ${res.statusCode} (expected ${expected.join('|')})`;
        if (!expected.includes(res.statusCode)) mismatches.push(`${where}: ${res.body.slice(0, 200)}`);

        const deniedExpected = expected.every((s) => s >= 400);
        if (deniedExpected && res.statusCode < 400) leaks.push(`${where}: allowed`);
        if (res.statusCode >= 400) {
          const changed = changedTables(before, await fingerprint(ctx.db));
          if (changed.length) leaks.push(`${where}: refused but changed ${changed.join(', ')}`);
          const body = res.json() as Record<string, unknown>;
          const extra = Object.keys(body).filter((k) => !ERROR_KEYS.has(k));
          if (extra.length) leaks.push(`${where}: refusal carried ${extra.join(', ')}`);
        }
      }
    }
    console.log(
      `authz: ${routes.length} routes × ${CALLERS.length} callers, ${leaks.length} leaks ` +
        `(${calls} calls, ${mismatches.length} unexpected statuses, ${testEngine})`,
    );
    expect(leaks).toEqual([]);
    expect(mismatches).toEqual([]);
  }, 300_000);
});
