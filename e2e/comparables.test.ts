import { describe, expect, it } from 'vitest';
import { createDemoParcelLayer } from '../apps/server/src/features/parcels/demo-parcels.ts';
import { expectNoA11yViolations, hasHorizontalScroll, type TrackedPage } from './support/browser.ts';
import { setUpPortal } from './support/portal-session.ts';
import { seedPublicTowns } from './support/public-fixture.ts';

/*
 * Issue 49 in a real browser: a resident of Harrison (the public fixture's town, given the demo towns'
 * synthetic street grid of lots) opens the Comparable sales panel of a record, changes the distance and
 * sees the list and the map follow, sorts the table by keyboard, opens a comparable, and prints the
 * worksheet; at a phone's width (the panel starts closed) and a desktop's; axe finds nothing wrong.
 */

const portal = setUpPortal({
  page: { timeoutMs: 15_000 },
  seed: async (db) => {
    const { harrisonId } = await seedPublicTowns(db);
    const report = await createDemoParcelLayer(db, harrisonId, { lat: 44.11, lon: -70.68 }, 'e2e');
    if (!report) throw new Error('Harrison got no parcel layer');
  },
});

const RECORD = '/Maine/Harrison/1050';

async function walkThrough(page: TrackedPage, width: number) {
  await page.goto(RECORD);
  const toggle = page.getByRole('button', { name: 'Comparable sales' });
  await toggle.waitFor();
  const section = page.getByRole('region', { name: 'Comparable sales' });
  if (width < 768) {
    // Closed on a phone until asked for: no request, nothing but the heading.
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await section.getByRole('combobox', { name: 'Distance' }).isVisible()).toBe(false);
    await toggle.focus();
    await page.keyboard.press('Enter');
  }
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');

  const status = section.locator('.opp-count');
  await expect.poll(() => status.textContent()).toMatch(/^\d+ comparable sales? within 0\.5 miles/);
  const table = section.locator('table.opp-comparables__table');
  const rows = table.locator('tbody tr');
  await rows.first().waitFor();
  const atHalfMile = await rows.count();
  expect(atHalfMile).toBeGreaterThan(0);
  // Every comparable is in the table and on the map.
  const markers = section.locator('.opp-comparables__marker');
  await section.locator('.opp-parcel-map').scrollIntoViewIfNeeded();
  await expect.poll(() => markers.count()).toBe(atHalfMile);
  await expectNoA11yViolations(page, `comparables panel at ${width} px`);
  expect(await hasHorizontalScroll(page)).toBe(false);

  // A shorter distance: the list and the map follow.
  const distance = section.getByRole('combobox', { name: 'Distance' });
  await distance.selectOption('0.1');
  await expect.poll(() => status.textContent()).toMatch(/within 0\.1 miles/);
  await expect.poll(() => markers.count()).toBe(await rows.count());
  expect(await rows.count()).toBeLessThanOrEqual(atHalfMile);
  // And a longer one.
  await distance.selectOption('2');
  await expect.poll(() => status.textContent()).toMatch(/within 2 miles/);
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(atHalfMile);
  await expect.poll(() => markers.count()).toBe(await rows.count());

  // Any living area: more sales, and those that are not arm's length are counted and said why.
  await section.getByRole('combobox', { name: 'Living area' }).selectOption('any');
  const note = section.locator('.opp-comparables__note');
  await expect
    .poll(() => note.textContent())
    .toMatch(/^\d+ sales? left out as not arm’s length \(\d+ with no price/);
  const armsLength = await rows.count();
  // The switch lists them too, marked.
  // (by keyboard: USWDS draws the box beside its label; the input itself is not what the eye sees)
  await section.getByRole('checkbox', { name: /include sales that are not arm’s length/i }).focus();
  await page.keyboard.press('Space');
  await expect.poll(() => rows.count()).toBeGreaterThan(armsLength);
  await expect.poll(() => note.textContent()).toMatch(/included and marked/);
  expect(await section.getByText('Not arm’s length', { exact: true }).count()).toBe(
    (await rows.count()) - armsLength,
  );

  // Sorted by price with the keyboard (a phone's stacked cards: the Sort by list; else the column's
  // header, which announces it), and the prices ascend.
  if (width < 768) {
    const sortBy = section.getByRole('combobox', { name: 'Sort by' });
    await sortBy.focus();
    await sortBy.selectOption('price:ascending');
  } else {
    const priceHeader = table.getByRole('columnheader', { name: /^Price/ }).first();
    await priceHeader.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => priceHeader.getAttribute('aria-sort')).toBe('ascending');
  }
  await expect.poll(() => table.locator('caption').textContent()).toMatch(/sorted by Price ascending/);
  const prices = (await table.locator('tbody tr td:nth-child(4)').allTextContents()).map((t) =>
    Number(t.replace(/[^0-9.]/g, '')),
  );
  expect(prices).toEqual([...prices].sort((a, b) => a - b));
  await expectNoA11yViolations(page, `comparables sorted by price at ${width} px`);

  // The CSV is the same list, from the server.
  const csvHref = await section.getByRole('link', { name: /download csv/i }).getAttribute('href');
  const csv = await page.request.get(csvHref!);
  expect(csv.status()).toBe(200);
  expect((await csv.text()).trimEnd().split('\r\n')).toHaveLength((await rows.count()) + 1);

  // The worksheet prints the panel alone: the subject's values, the criteria, its own stamp.
  await page.evaluate(() => {
    window.print = () => document.body.setAttribute('data-printed', 'yes');
  });
  await section.getByRole('button', { name: /print worksheet/i }).click();
  expect(await page.locator('body').getAttribute('data-printed')).toBe('yes');
  await page.emulateMedia({ media: 'print' });
  expect(await page.getByRole('heading', { name: 'Assessment', exact: true }).isVisible()).toBe(false);
  expect(await section.getByRole('heading', { name: 'Comparable sales worksheet' }).isVisible()).toBe(true);
  expect(
    await section
      .getByText(/^Within 2 miles; sales from .+; any living area; sales not at arm’s/)
      .isVisible(),
  ).toBe(true);
  const stamp = section.locator('.opp-print-stamp');
  expect(await stamp.isVisible()).toBe(true);
  expect(await stamp.textContent()).toMatch(
    /^Printed \d\d\/\d\d\/\d{4} from http.+\/Maine\/Harrison\/1050 · (Values (as of|for)|Published on this site)/,
  );
  expect(await section.getByRole('combobox', { name: 'Distance' }).isVisible()).toBe(false);
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  await page.emulateMedia({ media: 'screen' });
  expect(await page.getByRole('heading', { name: 'Assessment', exact: true }).isVisible()).toBe(true);

  // A comparable's link opens its record.
  const first = rows.first().getByRole('link').first();
  const href = await first.getAttribute('href');
  await first.click();
  await page.waitForURL((u) => u.pathname === href, { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Comparable sales' }).waitFor();
  expect(page.errors).toEqual([]);
}

describe('comparable sales', () => {
  it('walks a resident through the panel at 1280 px', async () => {
    const page = await portal.open({ viewport: { width: 1280, height: 900 } });
    await walkThrough(page, 1280);
  });

  it('walks a resident through the panel at 390 px, where it starts closed', async () => {
    const page = await portal.open({ viewport: { width: 390, height: 844 } });
    await walkThrough(page, 390);
  });
});
