import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse, Suggestion } from '@opp/contracts';
import { setupSearchPaths, setupTestApp } from '../../../test/helpers.ts';
import { buildClient } from '../../../test/factories.ts';
import { haveExample, importExample } from '../../../test/real-exports.ts';

/*
 * Cambridge, MA's real FY2014 roll (../shared/data/realworld/cambridge-ma), published through its
 * mapping as the command line does, searched the way people type its addresses: the roll writes
 * "212 THIRD ST", "1564 MASSACHUSETTS AVE" and "4 CANAL PK". Both search engines answer: the roll
 * index (this app; the roll is under its await threshold, so built before the first answer) and SQL
 * (a second app on the same database with the index off). Skipped when the data is absent.
 */

const haveData = haveExample('cambridge-fy2014', 'Cambridge search tests');
const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000 });
const engines = setupSearchPaths(ctx, { publicRateLimitPerMinute: 1_000_000 });
let clientId = 0;

async function locations(app: FastifyInstance, query: string): Promise<string[]> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/propertysearch/${clientId}?query=${encodeURIComponent(query)}&pagesize=500`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SearchResponse).SearchProperties.map((p) =>
    [p.StreetNumber, p.StreetName, p.Apartment && `#${p.Apartment}`].filter(Boolean).join(' '),
  );
}

async function suggestions(app: FastifyInstance, q: string): Promise<Suggestion[]> {
  const res = await app.inject(`/api/suggest/${clientId}?q=${encodeURIComponent(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { suggestions: Suggestion[] }).suggestions;
}

describe.skipIf(!haveData)('Cambridge, MA: addresses as people type them', () => {
  beforeAll(async () => {
    const client = await buildClient(ctx.db, { city: 'Cambridge', stateProvince: 'Massachusetts' });
    clientId = client.id;
    const outcome = await importExample(ctx.db, client.id, 'cambridge-fy2014');
    if (!outcome.ok) throw new Error(`the Cambridge roll did not import: ${outcome.errors.join('; ')}`);
  }, 300_000);

  it.each([
    ['212 Third Street', '212 THIRD ST'],
    ['212 3rd St', '212 THIRD ST'],
    ['212 third st', '212 THIRD ST'],
    ['1564 Massachusetts Avenue', '1564 MASSACHUSETTS AVE'],
    ['4 Canal Park', '4 CANAL PK'],
  ])('a search for "%s" finds %s on both engines', async (query, location) => {
    for (const [engine, app] of engines()) {
      const found = await locations(app, query);
      expect(found, engine).toContain(location);
      // Only that street (every word is a prefix, so 212 also finds unit #212 of another number).
      const street = location.replace(/^\S+ /, '');
      expect(
        found.every((l) => l.includes(street)),
        `${engine}: ${found.join('; ')}`,
      ).toBe(true);
    }
  });

  it('finds an address while its suffix or ordinal is half typed ("1564 mass av", "212 3r"), on both engines', async () => {
    for (const [engine, app] of engines()) {
      expect(await locations(app, '1564 mass av'), engine).toContain('1564 MASSACHUSETTS AVE');
      expect(await locations(app, '212 3r'), engine).toContain('212 THIRD ST');
    }
  });

  it('finds the same parcels for every way of writing the address, on both engines', async () => {
    for (const [engine, app] of engines()) {
      const asWritten = await locations(app, '4 canal pk');
      expect(asWritten.length, engine).toBeGreaterThan(20);
      expect(await locations(app, '4 Canal Park'), engine).toEqual(asWritten);
    }
  });

  it('suggests "212 THIRD ST" for "212 Third Street" and "212 3rd st", and while "3rd" is half typed, on both engines', async () => {
    for (const [engine, app] of engines())
      for (const q of ['212 Third Street', '212 3rd st', '212 third st ', '212 3r', '212 thi']) {
        const texts = (await suggestions(app, q)).map((s) => s.text);
        expect(texts, `${engine}: ${q}`).toContain('212 THIRD ST');
      }
  });

  it("dates the results by the roll's tax year (the mapping's 2014) on both engines", async () => {
    for (const [engine, app] of engines()) {
      const res = await app.inject({ method: 'POST', url: `/api/propertysearch/${clientId}?query=canal` });
      expect((res.json() as SearchResponse).TaxYear, engine).toBe(2014);
    }
  });

  it('suggests a unit as the record page prints it, and that text finds it', async () => {
    for (const [engine, app] of engines()) {
      const found = await suggestions(app, '303 third st 212');
      expect(
        found.map((s) => s.text),
        engine,
      ).toContain('303 THIRD ST, UNIT 212');
      expect(await locations(app, '303 THIRD ST, UNIT 212'), engine).toEqual(['303 THIRD ST #212']);
    }
  });
});
