import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PropertyRecordInput } from '@opp/contracts';
import { describe, expect, it } from 'vitest';
import { createDemoParcelLayer } from '../apps/server/src/features/parcels/demo-parcels.ts';
import { expectNoA11yViolations, screenshot, type TrackedPage } from './support/browser.ts';
import { setUpPortal } from './support/portal-session.ts';
import { HARRISON, seedPublicTowns } from './support/public-fixture.ts';
import { buildClient, publishRoll } from './support/seed.ts';

/*
 * Issue 48's record page as a planning clerk, a keyboard user and a resident on a phone meet it, at the
 * widths where it was found: the abutters notice (what it is measured from, a roll without owner names,
 * the labels it makes), the map (the distance drawn, the abutters picked out, one Tab stop), focus after
 * moving between pages, and what a printout leaves out. Harrison has the demo parcel layer; Medford, a
 * town whose roll has no owner names (as Cambridge's FY2014 table has none), has one too.
 */

const NAMELESS = { state: 'Massachusetts', city: 'Medford' };
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 768, height: 1024 };
const LAPTOP = { width: 1280, height: 900 };

const portal = setUpPortal({
  page: { timeoutMs: 15_000 },
  seed: async (db) => {
    const { harrisonId } = await seedPublicTowns(db);
    if (!(await createDemoParcelLayer(db, harrisonId, { lat: 44.11, lon: -70.68 }, 'e2e')))
      throw new Error('Harrison got no parcel layer');
    const town = await buildClient(db, { city: NAMELESS.city, stateProvince: NAMELESS.state });
    const records: PropertyRecordInput[] = Array.from({ length: 40 }, (_, i) => ({
      Account: String(i + 1),
      MapLot: `M-${String(i + 1).padStart(3, '0')}`,
      StreetNumber: String(10 + 2 * i),
      StreetName: 'SALEM ST',
    }));
    await publishRoll(db, town.id, records);
    if (!(await createDemoParcelLayer(db, town.id, { lat: 42.42, lon: -71.11 }, 'e2e-medford')))
      throw new Error('Medford got no parcel layer');
  },
});

async function openRecord(page: TrackedPage, url: string) {
  await page.goto(url);
  const section = page.getByRole('region', { name: 'Map and Abutters' });
  await section.locator('.opp-parcel-map').scrollIntoViewIfNeeded();
  await page.getByRole('region', { name: /^Map of the parcel at .+ and its neighbours$/ }).waitFor();
  await expect.poll(() => section.locator('.opp-count').textContent()).toMatch(/^\d+ records? within 300 ft/);
  return section;
}

/** The page printed to PDF by Chromium (print styles), as text. */
async function printedText(page: TrackedPage): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-print-'));
  try {
    await page.pdf({ path: path.join(dir, 'page.pdf'), format: 'Letter' });
    return execFileSync('pdftotext', ['-layout', path.join(dir, 'page.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const focusedText = (page: TrackedPage) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName}: ${(el.textContent ?? '').trim()}` : '';
  });

describe('a roll without owner names', () => {
  for (const viewport of [PHONE, LAPTOP])
    it(`says so beside the list, lists every parcel in the CSV, and counts Current Occupant labels at ${viewport.width}`, async () => {
      const page = await portal.open({ viewport });
      try {
        const section = await openRecord(page, `/${NAMELESS.state}/${NAMELESS.city}/5`);
        await section
          .getByText('This roll has no owner names for these records.', { exact: false })
          .waitFor();
        const subject = section.locator('.opp-abutters__subject');
        expect(await subject.textContent()).toMatch(
          /^Abutters within 300 ft of 18 SALEM ST \(Map\/Lot M-005\)\. Measured from this parcel's boundary, using the town's parcel map of \d\d\/\d\d\/\d{4}; the map is a reference, not a survey\.$/,
        );
        const rows = await section.locator('.opp-abutters__table tbody tr').count();
        expect(rows).toBeGreaterThan(2);

        // Every record is in the CSV, after the lines naming it; the file's name says what it is.
        const csvLink = section.getByRole('link', { name: /download csv/i });
        const csv = await page.request.get((await csvLink.getAttribute('href'))!);
        expect(csv.headers()['content-disposition']).toBe(
          'attachment; filename="abutters-300ft-18-SALEM-ST-map-lot-M-005.csv"',
        );
        const lines = (await csv.text())
          .replace(/^\uFEFF/, '')
          .trimEnd()
          .split('\r\n');
        expect(lines[0]).toBe('"Abutters within 300 ft of 18 SALEM ST (Map/Lot M-005)"');
        expect(lines.slice(4)).toHaveLength(rows);

        // Labels to "Current Occupant", as the clerk chooses, counted before downloading.
        const count = section.locator('.opp-abutters__label-count');
        expect(await count.textContent()).toBe(
          `The labels PDF holds 0 owner labels. ${rows} records with no mailing address get no label.`,
        );
        await section.getByText(/^Add “Current Occupant” labels/).click();
        expect(await count.textContent()).toBe(
          `The labels PDF holds 0 owner labels and ${rows} “Current Occupant” labels.`,
        );
        const labels = section.getByRole('link', { name: /mailing labels/i });
        expect(await labels.getAttribute('href')).toMatch(/occupants=1/);
        const pdf = await page.request.get((await labels.getAttribute('href'))!);
        expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

        await screenshot(page, `abutters-nameless-${viewport.width}`, { fullPage: true });
        await expectNoA11yViolations(page, `record of a roll without owner names at ${viewport.width}`);
        expect(page.errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
});

describe('the record map', () => {
  it('draws the distance around the parcel and picks out the abutters, not every parcel in view', async () => {
    const page = await portal.open({ viewport: LAPTOP });
    try {
      const section = await openRecord(page, `/${HARRISON.state}/${HARRISON.city}/1000`);
      const map = section.locator('.opp-parcel-map');
      const abutters = map.locator('path[stroke="#162e51"]');
      const others = map.locator('path[stroke="#71767a"]');
      await expect.poll(() => abutters.count()).toBeGreaterThan(0);
      const rows = await section.locator('.opp-abutters__table tbody tr').count();
      expect(await abutters.count()).toBeLessThanOrEqual(rows);
      expect(await others.count()).toBeGreaterThan(0);
      expect(await map.locator('path[stroke="#1b1b1b"][stroke-dasharray]').count()).toBe(1);
      // A shorter distance: fewer parcels picked out.
      const at300 = await abutters.count();
      await section.getByRole('button', { name: '100 ft' }).click();
      await expect.poll(() => section.locator('.opp-count').textContent()).toMatch(/within 100 ft/);
      await expect.poll(() => abutters.count()).toBeLessThan(at300);
      expect(await map.locator('.opp-parcel-map__note').textContent()).toContain(
        'marks 100 ft from its boundary',
      );
    } finally {
      await page.close();
    }
  });

  for (const viewport of [TABLET, LAPTOP])
    it(`is one Tab stop with a focus ring, moved by keys, and the abutters controls are within 5 Tabs at ${viewport.width}`, async () => {
      const page = await portal.open({ viewport });
      try {
        const section = await openRecord(page, `/${HARRISON.state}/${HARRISON.city}/1000`);
        const canvas = section.locator('.opp-parcel-map__canvas');
        await expect
          .poll(() => section.locator('.opp-parcel-map path.leaflet-interactive').count())
          .toBeGreaterThan(5);
        // Reach it from the control before it with Tab, as a keyboard user does.
        await page.getByRole('heading', { name: 'Map and Abutters' }).evaluate((h) => {
          (h as HTMLElement).tabIndex = -1;
          (h as HTMLElement).focus();
        });
        await page.keyboard.press('Tab');
        expect(await canvas.evaluate((el) => el === document.activeElement)).toBe(true);
        const ring = await canvas.evaluate((el) => getComputedStyle(el).outlineStyle);
        expect(ring).not.toBe('none');
        const view = () =>
          canvas.locator('.leaflet-map-pane').evaluate((el) => getComputedStyle(el).transform);
        const zoom = () => canvas.locator('.leaflet-proxy').evaluate((el) => getComputedStyle(el).transform);
        const before = await view();
        await page.keyboard.press('ArrowRight');
        await expect.poll(view).not.toBe(before);
        const zoomed = await zoom();
        await page.keyboard.press('-');
        await expect.poll(zoom).not.toBe(zoomed);

        let presses = 0;
        const inControls = () =>
          section.locator('.opp-abutters__controls').evaluate((el) => el.contains(document.activeElement));
        const path: string[] = [];
        while (presses < 5 && !(await inControls())) {
          await page.keyboard.press('Tab');
          presses++;
          path.push(
            await page.evaluate(() => {
              const el = document.activeElement!;
              return `${el.tagName}.${el.getAttribute('class')}: ${(el.textContent ?? '').trim().slice(0, 30)}`;
            }),
          );
        }
        // Nothing inside the map is a Tab stop of its own: not the parcels, not the zoom buttons.
        expect(await inControls(), path.join('\n')).toBe(true);
        expect(await focusedText(page)).toBe('BUTTON: 100 ft');
        expect(presses).toBeLessThanOrEqual(5);
        await expectNoA11yViolations(page, `record map focused at ${viewport.width}`);
      } finally {
        await page.close();
      }
    });
});

describe('moving between pages', () => {
  for (const viewport of [PHONE, LAPTOP])
    it(`focuses and announces each new page's heading (the town's search box on its page) at ${viewport.width}`, async () => {
      const page = await portal.open({ viewport });
      try {
        const announced = page.locator('p[role="status"].opp-visually-hidden').first();
        await page.goto('/');
        await page.getByRole('heading', { name: 'Find A Property' }).waitFor();
        // The server paints the home page before the app runs: the app's router is there once the app
        // has listed the state's communities.
        await page
          .getByLabel('Community')
          .locator('option', { hasText: 'Harrison' })
          .waitFor({ state: 'attached' });
        // Home → town: the search box.
        await page.evaluate(() => {
          window.history.pushState({}, '', '/Maine/Harrison');
          window.dispatchEvent(new PopStateEvent('popstate'));
        });
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.className ?? ''))
          .toContain('opp-searchbar__input');
        await expect.poll(() => announced.textContent()).toBe('Harrison, Maine');

        // Results → record → Next → Previous: the record's address, each time.
        await page.goto(`/${HARRISON.state}/${HARRISON.city}/search?sort=MapLot`);
        const first = page
          .locator('.opp-results-table tbody tr, .opp-card')
          .first()
          .getByRole('link')
          .first();
        await first.click();
        // The record's own heading (the results' heading is gone with them).
        const heading = page.locator('#main-content h1.opp-record-head__address');
        await heading.waitFor();
        await expect.poll(() => focusedText(page)).toBe(`H1: ${(await heading.textContent())!.trim()}`);
        const firstAddress = (await heading.textContent())!.trim();
        await expect.poll(() => announced.textContent()).toBe(firstAddress);

        // On a phone the bar is in reach halfway down a long record.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
        const next = page.getByRole('link', { name: 'Next property' });
        const box = (await next.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
        expect(box.y).toBeGreaterThanOrEqual(0);
        await next.click();
        await expect.poll(async () => (await heading.textContent())?.trim()).not.toBe(firstAddress);
        const secondAddress = (await heading.textContent())!.trim();
        await expect.poll(() => focusedText(page)).toBe(`H1: ${secondAddress}`);
        await expect.poll(() => announced.textContent()).toBe(secondAddress);
        await screenshot(page, `record-after-next-${viewport.width}`);

        await page.getByRole('link', { name: 'Previous property' }).click();
        await expect.poll(() => focusedText(page)).toBe(`H1: ${firstAddress}`);
        await expectNoA11yViolations(page, `record after Previous at ${viewport.width}`);
        expect(page.errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
});

describe('printing', () => {
  it('a record prints its map centred on the parcel and none of the abutters tools; the list on request', async () => {
    const page = await portal.open({ viewport: LAPTOP });
    try {
      const section = await openRecord(page, `/${HARRISON.state}/${HARRISON.city}/1000`);
      await expect
        .poll(() => section.locator('.opp-parcel-map path.leaflet-interactive').count())
        .toBeGreaterThan(5);
      // The abutters' own tools (the comparable sales panel below has a Download CSV of its own).
      const tools = [
        'Mailing labels (PDF)',
        'Print list',
        'Other distance',
        '100 ft',
        'One label per owner',
        'Include the abutters list',
      ];
      const plain = await printedText(page);
      expect(plain).toContain('Map and Abutters');
      for (const tool of tools) expect(plain, tool).not.toContain(tool);
      expect(plain).not.toContain('Abutters within 300 ft');

      await section.getByText('Include the abutters list when printing this record').click();
      const withList = await printedText(page);
      expect(withList.replace(/\s+/g, ' ')).toMatch(
        /Abutters within 300 ft of 10 MAIN ST \(Map\/Lot [^)]+\)\. Measured from this parcel's boundary/,
      );
      for (const tool of tools) expect(withList, tool).not.toContain(tool);

      // The printed map has the parcel in its middle.
      await page.emulateMedia({ media: 'print' });
      const canvas = (await section.locator('.opp-parcel-map__canvas').boundingBox())!;
      const subject = (await section.locator('.opp-parcel-map path[stroke="#b50909"]').boundingBox())!;
      const off = (a: number, b: number) => Math.abs(a - b);
      expect(off(subject.x + subject.width / 2, canvas.x + canvas.width / 2)).toBeLessThan(
        canvas.width * 0.05,
      );
      expect(off(subject.y + subject.height / 2, canvas.y + canvas.height / 2)).toBeLessThan(
        canvas.height * 0.05,
      );
      await page.emulateMedia({ media: 'screen' });
    } finally {
      await page.close();
    }
  });

  it('printed results carry the line saying where and when they came from', async () => {
    const page = await portal.open({ viewport: LAPTOP });
    try {
      await page.goto(`/${HARRISON.state}/${HARRISON.city}/search`);
      await expect.poll(() => page.locator('.opp-count').textContent()).toMatch(/^Showing 1 to 50/);
      const text = (await printedText(page)).replace(/\s+/g, ' ');
      expect(text).toContain(`from ${portal.url}/Maine/Harrison/search`);
      expect(text).toMatch(/Printed \d\d\/\d\d\/\d{4} from /);
    } finally {
      await page.close();
    }
  });
});
