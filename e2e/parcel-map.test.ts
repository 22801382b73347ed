import { beforeAll, describe, expect, it } from 'vitest';
import { createDemoParcelLayer } from '../apps/server/src/features/parcels/demo-parcels.ts';
import { expectNoA11yViolations, MOBILE, screenshot, settle, type TrackedPage } from './support/browser.ts';
import { setUpPortal } from './support/portal-session.ts';
import { seedPublicTowns } from './support/public-fixture.ts';

/*
 * Issue 40 in a real browser: Harrison gets the demo towns' synthetic parcel layer (a street grid of
 * lots), Bridgton none. The record page shows the parcel on a map with its neighbours and the abutters
 * panel; the results page has a Map view; axe-core finds nothing wrong with either. Offline: the portal
 * runs with MAP_TILES_URL empty (TEST_ENV), so the map draws parcels only.
 */

let page: TrackedPage;

const portal = setUpPortal({
  page: { timeoutMs: 15_000 },
  seed: async (db) => {
    const { harrisonId } = await seedPublicTowns(db);
    const report = await createDemoParcelLayer(db, harrisonId, { lat: 44.11, lon: -70.68 }, 'e2e');
    if (!report) throw new Error('Harrison got no parcel layer');
  },
});
beforeAll(async () => {
  page = await portal.open();
});

const parcelPaths = (p: TrackedPage) => p.locator('.opp-parcel-map path.leaflet-interactive');
const SUBJECT = '.opp-parcel-map path[stroke="#b50909"]';

/** A parcel drawn on the map other than the record's own. */
const neighbourPath = (p: TrackedPage) =>
  p.locator('.opp-parcel-map path.leaflet-interactive:not([stroke="#b50909"])').first();

describe('parcel maps', () => {
  it('shows the record’s parcel among its neighbours, and its abutters, with no axe violations', async () => {
    await page.goto('/Maine/Harrison/1000');
    const section = page.getByRole('region', { name: 'Map and Abutters' });
    await section.locator('.opp-parcel-map').scrollIntoViewIfNeeded();
    const map = page.getByRole('region', { name: /^Map of the parcel at .+ and its neighbours$/ });
    await map.waitFor();
    // The parcel (red) and its neighbours, drawn once the box around it has come.
    await expect.poll(() => parcelPaths(page).count()).toBeGreaterThan(5);
    expect(await page.locator(SUBJECT).count()).toBe(1);
    expect(await map.getAttribute('aria-describedby')).toBeTruthy();
    // The GIS link in the record's header stays.
    expect(await page.locator('a[href="https://maps.harrison.example/parcel/1000"]').count()).toBe(1);

    const status = section.locator('.opp-count');
    await expect.poll(() => status.textContent()).toMatch(/^\d+ records? within 300 ft of this parcel$/);
    const table = section.getByRole('table', { name: 'Abutters within 300 ft, nearest first' });
    const rows = table.locator('tbody tr');
    const at300 = await rows.count();
    expect(at300).toBeGreaterThan(1);
    // Nearest first, the neighbours touching at 0 ft.
    expect(await rows.first().locator('td').last().textContent()).toBe('0');

    await section.getByRole('button', { name: '100 ft' }).click();
    await expect.poll(() => status.textContent()).toMatch(/^\d+ records? within 100 ft of this parcel$/);
    const table100 = section.getByRole('table', { name: 'Abutters within 100 ft, nearest first' });
    await table100.waitFor();
    expect(await table100.locator('tbody tr').count()).toBeLessThanOrEqual(at300);

    // Keyboard users can reach the map (and pan and zoom it); its name and description say what it is.
    expect(await map.getAttribute('tabindex')).toBe('0');
    await screenshot(page, 'parcel-map-record', { fullPage: true });
    await expectNoA11yViolations(page, 'record page with its parcel map and abutters');

    // A typed distance out of range is refused with a message, as typed.
    const distance = section.getByRole('textbox', { name: /other distance/i });
    await distance.fill('3000');
    await section.getByText('The distance must be a whole number of feet from 0 to 2640.').waitFor();
    expect(await distance.getAttribute('aria-invalid')).toBe('true');
    await expectNoA11yViolations(page, 'abutters panel with a distance error');

    // The downloads are real files from the server.
    await distance.fill('100');
    const csvHref = await section.getByRole('link', { name: /download csv/i }).getAttribute('href');
    const csv = await page.request.get(csvHref!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toMatch(/text\/csv/);
    const pdfHref = await section.getByRole('link', { name: /mailing labels/i }).getAttribute('href');
    const pdf = await page.request.get(pdfHref!);
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // "Print list" prints the abutters alone: the record's other sections and the map are left out.
    await page.evaluate(() => {
      window.print = () => document.body.setAttribute('data-printed', 'yes');
    });
    await section.getByRole('button', { name: /print list/i }).click();
    expect(await page.locator('body').getAttribute('data-printed')).toBe('yes');
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('heading', { name: 'Assessment', exact: true }).isVisible()).toBe(false);
    expect(await map.isVisible()).toBe(false);
    expect(await section.getByRole('table', { name: /^Abutters within 100 ft/ }).isVisible()).toBe(true);
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await page.emulateMedia({ media: 'screen' });
    expect(await page.getByRole('heading', { name: 'Assessment', exact: true }).isVisible()).toBe(true);

    // A click on a neighbour opens its record.
    await neighbourPath(page).dispatchEvent('click');
    await page.waitForURL((u) => /\/Maine\/Harrison\/(?!1000$)[^/]+$/.test(u.pathname), {
      waitUntil: 'commit',
    });
    await page.getByRole('region', { name: 'Map and Abutters' }).waitFor();
    expect(page.errors).toEqual([]);
  });

  it('has no map, and asks for none, on a town without a parcel layer', async () => {
    const other = await portal.open();
    try {
      const parcelRequests: string[] = [];
      other.on('request', (r) => {
        if (/^\/api\/(parcels|abutters)\//.test(new URL(r.url()).pathname)) parcelRequests.push(r.url());
      });
      await other.goto('/Maine/Bridgton/1');
      await other.getByRole('heading', { name: 'Assessment', exact: true }).waitFor();
      await other.waitForLoadState('networkidle');
      expect(await other.getByRole('region', { name: 'Map and Abutters' }).count()).toBe(0);
      expect(await other.locator('.leaflet-container').count()).toBe(0);
      await other.goto('/Maine/Bridgton/search');
      await other.locator('.opp-results-table tbody tr').first().waitFor();
      expect(await other.getByRole('button', { name: 'Map', exact: true }).count()).toBe(0);
      expect(parcelRequests).toEqual([]);
      expect(other.errors).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('shows every result of the search on the map, grouped with counts; a group zooms in, a point opens its record', async () => {
    await page.goto('/Maine/Harrison/search');
    await page.locator('.opp-results-table tbody tr').first().waitFor();
    await page.getByRole('button', { name: 'Map', exact: true }).click();
    expect(page.url()).toContain('view=map');
    const map = page.getByRole('region', { name: 'Map of all the results' });
    await map.waitFor();
    const total = Number(
      /of ([\d,]+)/
        .exec((await page.locator('.opp-count').first().textContent()) ?? '')![1]!
        .replace(/,/g, ''),
    );
    const onPage = await page.locator('.opp-results-table tbody tr').count();
    expect(total).toBeGreaterThan(onPage);
    const groups = page.locator('.opp-cluster');
    const points = page.locator('.opp-parcel-map path.leaflet-interactive');
    // Every result of the search is on the map (the demo town's are all on its parcels), not only this page's.
    const shown = async () =>
      (await groups.allTextContents()).reduce((n, t) => n + Number(t.replace(/,/g, '')), 0) +
      (await points.count());
    await expect.poll(shown).toBe(total);
    // Zoomed out to the town's scale (the map is one Tab stop; - zooms out), results close together are
    // grouped, and the groups' counts still add up to every result.
    await map.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('-');
    await expect.poll(() => groups.count()).toBeGreaterThan(0);
    await expect.poll(shown).toBe(total);
    expect(await page.getByText(`All ${total.toLocaleString('en-US')} results of this search`).count()).toBe(
      1,
    );
    await expectNoA11yViolations(page, 'results page, map view');
    await screenshot(page, 'parcel-map-results', { fullPage: true });

    // A group zooms in to its results, until single results show; one opens its record.
    for (let i = 0; i < 10 && (await points.count()) === 0; i++) {
      const before = `${(await groups.allTextContents()).join()}|${await points.count()}`;
      await groups.first().dispatchEvent('click');
      await expect
        .poll(async () => `${(await groups.allTextContents()).join()}|${await points.count()}`)
        .not.toBe(before);
    }
    expect(await points.count()).toBeGreaterThan(0);
    await points.first().dispatchEvent('click');
    await page.waitForURL((u) => /\/Maine\/Harrison\/(?!search$)[^/]+$/.test(u.pathname), {
      waitUntil: 'commit',
    });
    await page.getByRole('region', { name: 'Map and Abutters' }).waitFor();
    expect(page.errors).toEqual([]);
  });

  it('fits a phone screen', async () => {
    const phone = await portal.open({ viewport: MOBILE });
    try {
      let leaflet = 0;
      phone.on('request', (r) => {
        if (/\/assets\/parcel-map-view-[^/]*\.js$/.test(r.url())) leaflet++;
      });
      const leafletAsked = () => leaflet > 0;
      await phone.goto('/Maine/Harrison/1000');
      await phone.getByRole('table', { name: /^Abutters within 300 ft/ }).waitFor();
      // The map, at the foot of the page, is drawn (and Leaflet fetched) only once scrolled near.
      await settle(phone);
      expect(await phone.locator('.leaflet-container').count()).toBe(0);
      expect(leafletAsked()).toBe(false);
      await phone.locator('.opp-parcel-map').scrollIntoViewIfNeeded();
      await expect.poll(() => parcelPaths(phone).count()).toBeGreaterThan(5);
      expect(leafletAsked()).toBe(true);
      await expectNoA11yViolations(phone, 'record page with its parcel map and abutters at 375px');
      await screenshot(phone, 'parcel-map-record-375', { fullPage: true });
    } finally {
      await phone.close();
    }
  });
});
