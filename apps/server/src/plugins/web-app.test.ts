import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildClient, publishRoll } from '../../test/factories.ts';
import { setupTestApp } from '../../test/helpers.ts';

// A built web app as `npm run build` leaves it: each text file with its .br and .gz beside it.
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-web-'));
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/app-1a2b.js"></script></head>' +
  '<body><div id="root"><header></header><!--opp-static-page--></div></body></html>';
const SCRIPT = `export const words = ${JSON.stringify('property '.repeat(200))};\n`;
const write = (file: string, text: string, compressed = true) => {
  const full = path.join(webDist, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  if (!compressed) return;
  fs.writeFileSync(`${full}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${full}.gz`, zlib.gzipSync(text));
};
write('index.html', INDEX);
write('assets/app-1a2b.js', SCRIPT);
write('assets/tiny-3c4d.css', 'a{}', false);
write(
  '.vite/route-preloads.json',
  JSON.stringify({ search: ['/assets/search-5e6f.js'], property: ['/assets/property-7a8b.js', '"><x'] }),
  false,
);
// The web app's painter (apps/web/src/painted-page.tsx, whose markup its own test checks): here it
// answers with what it was asked to paint.
write(
  '.vite/painter/painted-page.js',
  'export const paintPage = (p) => `<main>${JSON.stringify(p).replace(/</g, "\\u003c")}</main>`;\n',
  false,
);
afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));

/** What the server asked the painter to paint into a page, or null when nothing was painted. */
const paintedOf = (html: string) => {
  const json = /<main>(.*?)<\/main>/.exec(html)?.[1];
  return json === undefined ? null : (JSON.parse(json) as Record<string, unknown>);
};

const ctx = setupTestApp({ webDist });
const get = (url: string, acceptEncoding?: string) =>
  ctx.app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('web app files', () => {
  it('sends a browser that accepts brotli the brotli file, marked as varying by Accept-Encoding', async () => {
    const res = await get('/assets/app-1a2b.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
  });

  it('falls back to gzip, then to the file as is', async () => {
    const gz = await get('/assets/app-1a2b.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/app-1a2b.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(SCRIPT);

    // A file too small to have been compressed is sent as is, even to a browser that accepts brotli.
    const tiny = await get('/assets/tiny-3c4d.css', 'br');
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.headers['content-type']).toMatch(/text\/css/);
    expect(tiny.body).toBe('a{}');
  });

  it('answers a client-side route with the compressed index.html, revalidated on every visit', async () => {
    const res = await get('/Maine/Harrison/search?query=main', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
  });

  it('serves the files of a build made in place while the server runs', async () => {
    // `npm run build` replaces the hashed files; the new index.html names new ones at once.
    const script = 'export const rebuilt = true;\n'.repeat(200);
    write('assets/app-5e5e.js', script);
    const res = await get('/assets/app-5e5e.js', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(script);
    // Only files of the assets folder itself: no way out of it.
    for (const url of ['/assets/..%2Findex.html', '/assets/%2e%2e%2findex.html', '/assets/..%5Cindex.html'])
      expect((await get(url)).statusCode, url).toBe(404);
  });

  it('answers a missing asset with 404, never with the app', async () => {
    const res = await get('/assets/gone-9z9z.js', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
  });

  it("carries the town and a preload of its banner on the town's pages: nothing waits for the API", async () => {
    const town = await buildClient(ctx.db, {
      city: 'Bannerton',
      description: 'Town of </script><b>Bannerton',
      bannerImage: 'town banner.png',
    });
    const plainTown = await buildClient(ctx.db, { city: 'Plainville', bannerImage: null });
    const banner = '/api/files/image/town%20banner.png';
    // One preload per screen: a phone's copy, a sharp phone's larger copy, or the banner itself.
    const hint =
      `<link rel="preload" as="image" href="${banner}?w=1080" media="(max-width: 40em) and (min-resolution: 2.5dppx)" fetchpriority="high">` +
      `<link rel="preload" as="image" href="${banner}?w=720" media="(max-width: 40em) and (max-resolution: 2.49dppx)" fetchpriority="high">` +
      `<link rel="preload" as="image" href="${banner}" media="not all and (max-width: 40em)" fetchpriority="high">`;
    const api = await ctx.app.inject(`/api/client/${town.id}`);
    for (const url of ['/Maine/Bannerton', '/Maine/bannerton/search?query=x', '/ME/Bannerton/1234']) {
      const res = await get(url, 'gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['cache-control']).toBe('no-cache');
      const html = zlib.gunzipSync(res.rawPayload).toString();
      expect(html).toContain(hint);
      // Asked for ahead of the app's scripts, so a slow link does not queue it behind them.
      expect(html.indexOf(hint)).toBeLessThan(html.indexOf('<script type="module"'));
      const data = /<script type="application\/json" id="opp-town">(.*?)<\/script>/.exec(html);
      // Exactly what the API answers, and the title cannot close the element early.
      expect(JSON.parse(data![1]!)).toEqual(api.json());
      expect(data![1]).not.toContain('<');
      // The route's own chunks, listed for the start script to fetch beside the entry after the paint
      // (never as links the browser would fetch before it); nothing but asset paths is taken.
      const chunk = url.endsWith('1234') ? 'property-7a8b' : 'search-5e6f';
      const routeScripts = /<script type="application\/json" id="opp-route-scripts">(.*?)<\/script>/.exec(
        html,
      );
      expect(JSON.parse(routeScripts![1]!)).toEqual([`/assets/${chunk}.js`]);
      expect(html).not.toContain('modulepreload');
      expect(html).not.toContain('<x');
      // A record page also starts the record's request, at the URL the app asks for.
      const recordHint =
        '<link rel="preload" as="fetch" crossorigin href="/api/fullproperty/1234?city=Bannerton&amp;state=ME">';
      if (url.endsWith('1234')) expect(html).toContain(recordHint);
      else expect(html).not.toContain('/api/fullproperty/');
      // The page's first content is painted with the shell: the town's heading, and the search box
      // with the URL's query or the record's heading.
      const painted = paintedOf(html);
      if (url.endsWith('1234')) expect(painted).toEqual({ page: 'record', town: api.json(), heading: null });
      else expect(painted).toEqual({ page: 'search', town: api.json(), query: '' });
      expect(html).toContain('<header></header><main>');
    }
    const plain = await get('/Maine/Plainville/search');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).not.toContain('rel="preload"');
    expect(paintedOf(plain.body)).toMatchObject({ page: 'search', town: { ClientID: plainTown.id } });
    expect(plain.body).toContain(`"ClientID":${plainTown.id}`);
    // Nothing for an unknown town, the admin page or other paths.
    for (const url of ['/Maine/Nowhere/search', '/Maine/Bannerton/admin', '/admin']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
    }
    // The home page gets its heading and introduction painted.
    const home = await get('/', 'br');
    expect(home.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(home.rawPayload).toString()).toBe(
      INDEX.replace('<!--opp-static-page-->', '<main>{"page":"home"}</main>'),
    );
  });

  it("paints the search page's search box with the URL's query, taken as text", async () => {
    await buildClient(ctx.db, { city: 'Old Orchard', bannerImage: null });
    const res = await get('/Maine/old%20orchard/search?q=%22%3E%3Cb%3Emain%20st&page=2');
    expect(paintedOf(res.body)).toMatchObject({ page: 'search', query: '"><b>main st' });
    // `$'` and `$&` are text, not patterns of String.replace.
    const dollars = await buildClient(ctx.db, {
      city: 'Dollarton',
      description: "Town of $' and $&",
      bannerImage: null,
    });
    const page = (await get("/Maine/Dollarton/search?q=%24'%24%26")).body;
    expect(paintedOf(page)).toMatchObject({ query: "$'$&", town: { Description: "Town of $' and $&" } });
    expect(page).toContain(`"ClientID":${dollars.id},`);
    // The town page without /search is the search page too; a long query is cut as the box cuts it.
    expect(paintedOf((await get('/Maine/Old%20Orchard')).body)).toMatchObject({ page: 'search', query: '' });
    const long = paintedOf((await get(`/Maine/Old%20Orchard?q=${'a'.repeat(300)}`)).body);
    expect(long).toMatchObject({ query: 'a'.repeat(200) });
  });

  it("paints a record's heading, its address, as the record page shows it", async () => {
    const town = await buildClient(ctx.db, { city: 'Recordville', bannerImage: null });
    await publishRoll(ctx.db, town.id, [
      { Account: '17', StreetNumber: '12', Apartment: 'B', StreetName: 'MAIN <ST>' },
      { Account: 'R-2' },
    ]);
    const heading = (html: string) => paintedOf(html)?.heading;
    expect(heading((await get('/Maine/Recordville/17')).body)).toBe('12 MAIN <ST>, UNIT B');
    // No address: the account, as the page writes it.
    expect(heading((await get('/Maine/Recordville/R-2')).body)).toBe('Account R-2');
    // No such record, or an account no roll could hold: no heading painted, and the page is still served.
    for (const url of [
      '/Maine/Recordville/99',
      '/Maine/Recordville/a%20b',
      `/Maine/Recordville/${'9'.repeat(80)}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(heading(res.body), url).toBeNull();
    }
  });
});
