import { describe, expect, it } from 'vitest';
import { setUpPortal } from './support/portal-session.ts';
import { buildClient } from './support/seed.ts';

// The harness itself: a real server with the built app on a seeded database, reached by real Chromium.
describe('e2e harness', () => {
  const portal = setUpPortal({
    seed: async (db) => {
      await buildClient(db, { city: 'Harnessville', stateProvince: 'Maine' });
    },
  });

  it('serves the built web app and the API on one port over the seeded database', async () => {
    const page = await portal.open();
    const res = await page.goto('/');
    expect(res?.status()).toBe(200);
    await expect(page.title()).resolves.toMatch(/Online Property Portal$/);
    // An unknown path still gets the single-page app (client-side routing), not a server 404.
    const deep = await page.goto('/Maine/Harnessville/search');
    expect(deep?.status()).toBe(200);
    const health = await page.request.get(`${portal.url}/api/nope`);
    expect(health.status()).toBe(404);
    await page.close();
  });
});
