import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/helpers.ts';
import { API_CSP, APP_CSP, appCspWithTiles, hardenDocsCsp } from './security-headers.ts';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-web-'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>',
);
afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));

const closed = setupTestApp({ webDist });
const open = setupTestApp({ corsOrigins: ['https://town.example.gov'], hsts: true });

function directives(policy: string): Map<string, string> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...rest] = d.split(/\s+/);
        return [name, rest.join(' ')] as const;
      }),
  );
}

describe('security headers', () => {
  it('serves the web app with a policy that allows no inline or foreign script and no framing', async () => {
    const res = await closed.app.inject('/Maine/Testville/search');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('script-src-attr')).toBe("'none'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('default-src')).toBe("'self'");
    // Nothing anywhere in the policy lets an inline or eval'd script run.
    expect(APP_CSP).not.toMatch(/'unsafe-eval'|'strict-dynamic'/);
    expect(csp.get('script-src')).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('lets the page load base map tiles from the configured tile server only', () => {
    const img = (policy: string) => directives(policy).get('img-src');
    expect(img(appCspWithTiles(''))).toBe("'self' data: blob:");
    expect(img(appCspWithTiles('https://tile.openstreetmap.org/{z}/{x}/{y}.png'))).toBe(
      "'self' data: blob: https://tile.openstreetmap.org",
    );
    expect(img(appCspWithTiles('https://{s}.tiles.example.org/{z}/{x}/{y}.png'))).toBe(
      "'self' data: blob: https://*.tiles.example.org",
    );
    expect(directives(appCspWithTiles('https://tiles.example.org/{z}/{x}/{y}.png')).get('script-src')).toBe(
      "'self'",
    );
  });

  it('gives API answers a policy that allows nothing, so a served file can never run script', async () => {
    const res = await closed.app.inject('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-security-policy']).toBe(API_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('keeps swagger-ui working under its own static policy, but never frameable', async () => {
    const res = await closed.app.inject('/api/docs/');
    expect(res.statusCode).toBe(200);
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('script-src')).toMatch(/^'self'/);
    expect(csp.get('script-src')).not.toContain('unsafe-inline');
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    // Every inline script of the docs page is covered by a hash in the policy.
    const inline = [...res.body.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].filter(
      (m) => m[1]!.trim() !== '',
    );
    expect(inline).toEqual([]);
  });

  it('sends HSTS only when configured, and keeps upgrade-insecure-requests for HTTPS docs', async () => {
    const res = await open.app.inject('/api/no-such-thing');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(
      hardenDocsCsp("default-src 'self'; frame-ancestors 'self'; upgrade-insecure-requests;", true),
    ).toBe("default-src 'self'; frame-ancestors 'none'; upgrade-insecure-requests;");
  });

  it('marks answers to signed-in requests as not cacheable', async () => {
    const res = await closed.app.inject({
      url: '/api/no-such-thing',
      headers: { authorization: 'Bearer aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('CORS', () => {
  it('is closed when no origins are configured: no CORS headers, preflight refused', async () => {
    const simple = await closed.app.inject({
      url: '/api/openapi.json',
      headers: { origin: 'https://evil.example' },
    });
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await closed.app.inject({
      method: 'OPTIONS',
      url: '/api/contact',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.statusCode).toBe(403);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('answers a configured origin, and only that origin', async () => {
    const pre = await open.app.inject({
      method: 'OPTIONS',
      url: '/api/contact',
      headers: {
        origin: 'https://town.example.gov',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://town.example.gov');
    expect(pre.headers['access-control-allow-headers']).toMatch(/Authorization/);
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    expect(pre.headers.vary).toMatch(/Origin/);

    const get = await open.app.inject({
      url: '/api/openapi.json',
      headers: { origin: 'https://town.example.gov' },
    });
    expect(get.headers['access-control-allow-origin']).toBe('https://town.example.gov');

    const other = await open.app.inject({
      method: 'OPTIONS',
      url: '/api/contact',
      headers: { origin: 'https://town.example.gov.evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.statusCode).toBe(403);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
