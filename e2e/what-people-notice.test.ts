import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { clients, importRuns } from '../apps/server/src/db/schema.ts';
import { expectNoA11yViolations, type TrackedPage } from './support/browser.ts';
import { setUpPortal } from './support/portal-session.ts';
import { BRIDGTON, HARRISON, harrisonParcel, seedPublicTowns } from './support/public-fixture.ts';
import { buildClient, createUser, publishRoll } from './support/seed.ts';

/*
 * Issue 38 as a realtor, a title researcher and a town clerk would meet it: numbers typed, money and
 * facts on the page, a phone's first screen of results, the Advanced Search's buttons in view, active
 * filters as chips, Previous/Next across the whole result set, a session expiring mid-edit, the photo
 * lightbox, and what a printout says (Chromium's PDF read back with pdftotext).
 */

const VALUATION_DATE = '2024-04-01';
const CASCO = { state: 'Maine', city: 'Casco' };
const CASCO_STYLES = [
  'Bungalow',
  'Cape Cod',
  'Colonial',
  'Contemporary',
  'Conventional',
  'Decker',
  'Family Duplex',
  'Mansard',
  'Ranch',
  'Row End',
  'Row Middle',
  'Victorian',
];
/** What Harrison's pages say its values date from (the fixture's records give tax year 2024). */
const HARRISON_DATES =
  /^Values as of 04\/01\/2024, fiscal year 2024 · published on this site \d\d\/\d\d\/\d{4}$/;
const CLERK = { username: 'bea.bridgton', password: 'bridgton clerk password' };
const EMPTY_TOWN = { state: 'Maine', city: 'Naples' };

const portal = setUpPortal({
  page: { timeoutMs: 15_000 },
  seed: async (db) => {
    const { harrisonId, bridgtonId } = await seedPublicTowns(db);
    // Harrison's roll as its provider publishes it with --valuation-date (Maine values as of April 1).
    const [harrison] = await db.select().from(clients).where(eq(clients.id, harrisonId));
    await db
      .update(importRuns)
      .set({ valuationDate: VALUATION_DATE })
      .where(eq(importRuns.id, harrison!.activeRollId!));
    await createUser(db, { ...CLERK, roleId: 2, manages: bridgtonId });
    // A town whose assessor records a dozen building styles (the Style filter's long list).
    const casco = await buildClient(db, { city: CASCO.city, stateProvince: CASCO.state });
    await publishRoll(
      db,
      casco.id,
      CASCO_STYLES.map((style, i) => {
        const parcel = harrisonParcel(i);
        return { ...parcel, Buildings: [{ ...parcel.Buildings![0]!, BuildingType: style }] };
      }),
    );
    // A town on the portal whose roll has not been published yet.
    await buildClient(db, { city: EMPTY_TOWN.city, stateProvince: EMPTY_TOWN.state });
  },
});

const searchUrl = (query = '') => `/${HARRISON.state}/${HARRISON.city}/search${query}`;
const count = (page: Page) => page.locator('.opp-count');
const expectCount = (page: Page, text: string) => expect.poll(() => count(page).textContent()).toBe(text);
const rows = (page: Page) => page.locator('.opp-results-table tbody tr');
const position = async (page: Page) =>
  ((await page.locator('.opp-bottombar__pos').textContent()) ?? '').replace(/^Result /, '');

async function recordShown(page: Page, address: string) {
  await page.getByRole('heading', { level: 1, name: address }).waitFor();
  await page.locator('.opp-record .opp-section').first().waitFor();
}

describe('numbers people type', () => {
  let page: TrackedPage;
  beforeAll(async () => {
    page = await portal.open();
  });

  it('the page-number box reverts "-3" instead of going to page 3', async () => {
    await page.goto(searchUrl());
    await expectCount(page, 'Showing 1 to 50 of 120 results');
    const box = page.getByLabel('Page number');
    await box.fill('-3');
    await box.press('Enter');
    expect(await box.inputValue()).toBe('1');
    await expectCount(page, 'Showing 1 to 50 of 120 results');
    await box.fill('3');
    await box.press('Enter');
    await expectCount(page, 'Showing 101 to 120 of 120 results');
  });

  it('Advanced Search keeps 2.5 baths as 2.5 and explains "five" as it is typed', async () => {
    await page.goto(searchUrl());
    // The bare URL restores the search stored by the test before (page 3); the results say it is done.
    await expectCount(page, 'Showing 101 to 120 of 120 results');
    await page.getByRole('button', { name: /Advanced search/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Advanced Search' });
    await dialog.getByText('Waterfront').waitFor();
    const baths = dialog.getByLabel('Bathrooms (at least)');
    await baths.pressSequentially('2.5');
    expect(await baths.inputValue()).toBe('2.5');
    const landTo = dialog.getByLabel('Land area to (acres)');
    await landTo.pressSequentially('five');
    await dialog.getByText('Enter a number, for example 2.5.').waitFor();
    expect(await landTo.getAttribute('aria-invalid')).toBe('true');
    await expectNoA11yViolations(page, 'advanced search with a field to fix');
    // Search stays in the dialog, on the field to fix; nothing is sent.
    await dialog.getByRole('button', { name: 'Search' }).click();
    expect(await dialog.isVisible()).toBe(true);
    expect(await landTo.evaluate((el) => el === document.activeElement)).toBe(true);
    await landTo.fill('');
    await dialog.getByRole('button', { name: 'Search' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.waitForURL(/baths=2\.5/);
    expect(await count(page).textContent()).toMatch(/^Showing \d+ to \d+ of \d+ results?$/);
  });

  it('never shows a field path to the public, even for a bad value in a shared link', async () => {
    await page.goto(searchUrl('?landMax=five'));
    const alert = page.getByRole('alert').filter({ hasText: 'An error has occured' });
    await alert.waitFor();
    expect(await alert.textContent()).not.toMatch(/filters\.|land\.area/);
  });
});

describe('money and facts', () => {
  let page: TrackedPage;
  beforeAll(async () => {
    page = await portal.open();
  });

  it('says what is due near the top of the record and on Pay Now; a record with none says nothing', async () => {
    await page.goto(`/${HARRISON.state}/${HARRISON.city}/1000`);
    await recordShown(page, '10 MAIN ST');
    const due = page.locator('.opp-due');
    expect(await due.innerText()).toBe('Total due $1,234.56 as of 07/01/2024');
    // Above the sections: the first thing after the address and owners' heading.
    const dueTop = (await due.boundingBox())!.y;
    const assessmentTop = (await page
      .getByRole('heading', { name: 'Assessment', exact: true })
      .boundingBox())!.y;
    expect(dueTop).toBeLessThan(assessmentTop);
    expect(await page.getByRole('link', { name: /Pay Now/ }).innerText()).toContain('$1,234.56 due');

    await page.goto(`/${HARRISON.state}/${HARRISON.city}/1002`);
    await recordShown(page, '14 LAKE RD');
    expect(await page.locator('.opp-due').count()).toBe(0);
    expect(await page.getByText(/Total due/).count()).toBe(0);
  });

  it('results: "+N more" owners, acres with 2 decimals, apartments as units, one date style', async () => {
    await page.goto(searchUrl());
    await expectCount(page, 'Showing 1 to 50 of 120 results');
    const first = rows(page).first();
    expect(await first.locator('td').nth(2).innerText()).toContain('+1 more');
    for (const acres of await rows(page).locator('td[data-label="Acres"]').allInnerTexts())
      // A lot under an acre also gives its square feet.
      expect(acres).toMatch(/^\d+\.\d\d(\n[\d,]+ sq ft)?$/);
    for (const date of await rows(page).locator('td[data-label="Last Sale Date"]').allInnerTexts())
      expect(date).toMatch(/^\d\d\/\d\d\/\d{4}$/);
    expect(await page.locator('.opp-asof').innerText()).toMatch(HARRISON_DATES);

    await page.goto(`/${HARRISON.state}/${HARRISON.city}/1005`);
    await recordShown(page, '20 BOLSTERS MILLS RD, UNIT B');
    expect(await page.locator('.opp-record-meta').innerText()).toMatch(/Last Updated\s+03\/14\/2025/);
  });

  it('"Showing 1 to 1 of 1 result", and a town with no roll yet says so', async () => {
    await page.goto(searchUrl('?q=1005'));
    await expectCount(page, 'Showing 1 to 1 of 1 result');

    await page.goto(`/${EMPTY_TOWN.state}/${EMPTY_TOWN.city}/search`);
    await page.getByText('This town has not published its property records yet.', { exact: false }).waitFor();
    expect(await page.getByText(/Try fewer words/).count()).toBe(0);
  });
});

describe('on a phone', () => {
  let page: TrackedPage;
  beforeAll(async () => {
    page = await portal.open({
      viewport: { width: 375, height: 812 },
    });
  });

  it('folds the search panel into a one-line summary after a search; the first screen shows results', async () => {
    await page.goto(searchUrl());
    await expectCount(page, 'Showing 1 to 50 of 120 results');
    await page.getByRole('combobox').fill('MAIN');
    await page.getByRole('combobox').press('Enter');
    await expectCount(page, 'Showing 1 to 20 of 20 results');
    const summary = page.locator('.opp-search-summary');
    expect(await summary.innerText()).toContain('“MAIN”');
    expect(await page.getByRole('combobox').isVisible()).toBe(false);
    // Compact cards: at least three whole results on the first screen.
    if (process.env.SCREENS_DIR)
      await page.screenshot({ path: path.join(process.env.SCREENS_DIR, 'results-collapsed-375.png') });
    const onFirstScreen = await rows(page).evaluateAll(
      (trs) => trs.filter((tr) => tr.getBoundingClientRect().bottom <= window.innerHeight).length,
    );
    expect(onFirstScreen).toBeGreaterThanOrEqual(3);
    const card = (await rows(page).first().boundingBox())!;
    expect(card.height).toBeLessThan(180);
    await expectNoA11yViolations(page, 'collapsed search at 375');

    await page.getByRole('button', { name: 'Change search' }).click();
    expect(await page.getByRole('combobox').isVisible()).toBe(true);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('role')))
      .toBe('combobox');
  });
});

describe('Advanced Search buttons and active filters', () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 667 },
  ]) {
    it(`keeps Search and Reset in view at ${viewport.width}×${viewport.height}`, async () => {
      const page = await portal.open({ viewport });
      await page.goto(searchUrl());
      await expectCount(page, 'Showing 1 to 50 of 120 results');
      await page.getByRole('button', { name: /Advanced search/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Advanced Search' });
      await dialog.getByText('Waterfront').waitFor();
      if (process.env.SCREENS_DIR)
        await page.screenshot({
          path: path.join(
            process.env.SCREENS_DIR,
            `advanced-search-${viewport.width}x${viewport.height}.png`,
          ),
        });
      for (const name of ['Search', 'Reset']) {
        const box = (await dialog.getByRole('button', { name, exact: true }).boundingBox())!;
        expect(box.y + box.height, `${name} is on screen`).toBeLessThanOrEqual(viewport.height);
        expect(box.y).toBeGreaterThanOrEqual(0);
      }
      await page.close();
    });
  }

  it('shows active filters as chips above the results; removing one searches again', async () => {
    const page = await portal.open();
    await page.goto(searchUrl('?beds=4&landType=Rear%20Land'));
    await expectCount(page, 'Showing 1 to 35 of 35 results');
    const chips = page.getByRole('list', { name: 'Active filters' });
    expect(await chips.getByRole('button').evaluateAll((bs) => bs.map((b) => b.textContent))).toEqual([
      'At least 4 bedrooms× (remove this filter)',
      'Land type: Rear Land× (remove this filter)',
    ]);
    await chips.getByRole('button', { name: /At least 4 bedrooms/ }).click();
    await expectCount(page, 'Showing 1 to 40 of 40 results');
    expect(new URL(page.url()).searchParams.get('beds')).toBeNull();
    // The Reset button empties the form without searching.
    await page.getByRole('button', { name: /Advanced search/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Advanced Search' });
    await dialog.getByText('Waterfront').waitFor();
    expect(await dialog.getByLabel('Rear Land').isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Reset', exact: true }).click();
    expect(await dialog.getByLabel('Rear Land').isChecked()).toBe(false);
    await page.close();
  });
});

describe('moving around results', () => {
  it('Previous/Next carry on across pages of results, with "n of N" for the whole set', async () => {
    const page = await portal.open();
    await page.goto(searchUrl('?sort=MapLot'));
    await expectCount(page, 'Showing 1 to 50 of 120 results');
    await rows(page).nth(49).getByRole('link').click();
    await page.getByRole('navigation', { name: 'Record navigation' }).waitFor();
    await expect.poll(() => position(page)).toBe('50 of 120');
    const fiftieth = page.url();

    await page.goto(searchUrl('?sort=MapLot&page=2'));
    await expectCount(page, 'Showing 51 to 100 of 120 results');
    const fiftyFirst = await rows(page).first().getByRole('link').getAttribute('href');
    await page.goto(searchUrl('?sort=MapLot'));
    await expectCount(page, 'Showing 1 to 50 of 120 results');
    await page.goto(fiftieth);

    await page.getByRole('link', { name: 'Next property' }).click();
    await page.waitForURL(`**${fiftyFirst}`);
    await expect.poll(() => position(page)).toBe('51 of 120');
    await page.getByRole('link', { name: 'Previous property' }).click();
    await page.waitForURL(fiftieth);
    await expect.poll(() => position(page)).toBe('50 of 120');
    // Return to search shows the page the visitor is on now.
    await page.getByRole('link', { name: 'Next property' }).click();
    await page.waitForURL(`**${fiftyFirst}`);
    await page.getByRole('link', { name: 'Return to search' }).click();
    await expectCount(page, 'Showing 51 to 100 of 120 results');
    await page.close();
  });

  it('a session that expires while a town admin edits keeps the edit and saves it after signing in', async () => {
    const page = await portal.open();
    await page.goto(`/${BRIDGTON.state}/${BRIDGTON.city}/admin`);
    await page.getByLabel('Username').fill(CLERK.username);
    await page.getByLabel('Password').fill(CLERK.password);
    await page.getByLabel('Password').press('Enter');
    const city = page.getByLabel('City/Town');
    await city.waitFor();
    await city.fill('Bridgton Center');
    // The session ends on the server (as the idle limit ends it) while the form is open.
    await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem('accessToken') ?? 'null') as string;
      await fetch('/api/logout', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your session expired; sign in to save.', { exact: false }).waitFor();
    await expectNoA11yViolations(page, 'login after the session expired');
    await page.getByLabel('Username').fill(CLERK.username);
    await page.getByLabel('Password').fill(CLERK.password);
    await page.getByLabel('Password').press('Enter');
    // Back on the form with what was typed, saved at once.
    await page.waitForURL(/\/Maine\/Bridgton%20Center\/admin$/);
    await page.getByText('Client saved').waitFor();
    expect(await page.getByLabel('City/Town').inputValue()).toBe('Bridgton Center');

    // The same in the contact dialog: the session ends while it is open, Update finds it gone, and after
    // signing in again the dialog's text is saved.
    await page.getByRole('button', { name: 'Add contact' }).click();
    const contact = page.getByRole('dialog', { name: 'Contact Info' });
    await contact.getByLabel('Name/Title').fill('Tax Collector');
    await contact.getByLabel('Phone Number').fill('207-555-0142');
    await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem('accessToken') ?? 'null') as string;
      await fetch('/api/logout', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    });
    await contact.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Your session expired; sign in to save.', { exact: false }).waitFor();
    await page.getByLabel('Username').fill(CLERK.username);
    await page.getByLabel('Password').fill(CLERK.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByText('Contact saved').waitFor();
    await contact.waitFor({ state: 'detached' });
    await page.getByRole('rowheader', { name: 'Tax Collector' }).waitFor();

    // A toast shows above an open modal, not under its dimmed backdrop.
    await page.getByRole('button', { name: 'Add admin' }).click();
    const modal = page.getByRole('dialog', { name: 'Add Site Admin' });
    await modal.getByLabel('Password', { exact: true }).fill('one password here');
    await modal.getByLabel('Confirm Password').fill('another password');
    await modal.getByRole('button', { name: 'Update' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'Passwords do not match' });
    await toast.waitFor();
    const box = (await toast.boundingBox())!;
    const onTop = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('[role="status"]')?.textContent ?? '',
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(onTop).toContain('Passwords do not match');
    await page.close();
  });
});

describe('photos and print', () => {
  let page: TrackedPage;
  beforeAll(async () => {
    page = await portal.open();
  });

  it('the photo viewer is a lightbox: as large as the screen allows, arrows, Escape, focus kept inside', async () => {
    await page.goto(`/${HARRISON.state}/${HARRISON.city}/1000`);
    await recordShown(page, '10 MAIN ST');
    const inline = (await page.locator('.opp-photos__img').boundingBox())!;
    await page.getByRole('button', { name: 'View photo full screen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Photo 1 of 2 of 10 MAIN ST' });
    await dialog.waitFor();
    const big = (await dialog.locator('img').boundingBox())!;
    expect(big.width * big.height).toBeGreaterThan(inline.width * inline.height * 1.5);
    await expectNoA11yViolations(page, 'photo lightbox');
    if (process.env.SCREENS_DIR)
      await page.screenshot({ path: path.join(process.env.SCREENS_DIR, 'record-lightbox-1280.png') });
    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: 'Photo 2 of 2 of 10 MAIN ST' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('dialog', { name: 'Photo 1 of 2 of 10 MAIN ST' }).waitFor();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await page.getByRole('dialog').evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  /** The page printed to PDF by Chromium (print styles), as text. */
  async function printedText(p: Page): Promise<string> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-print-'));
    const pdf = path.join(dir, 'page.pdf');
    try {
      await p.pdf({ path: pdf, format: 'Letter' });
      return execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('a printed record says where and when it came from, breaks headers only between words, prints no controls', async () => {
    await page.goto(`/${HARRISON.state}/${HARRISON.city}/1000`);
    await recordShown(page, '10 MAIN ST');
    const text = await printedText(page);
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    expect(lines[0]).toBe('Harrison, Maine');
    expect(lines[1]).toMatch(/^10 MAIN ST/);
    const stamp = `Printed ${new Intl.DateTimeFormat('en-US', { month: '2-digit', day: '2-digit', year: 'numeric', timeZone: 'America/New_York' }).format(new Date())} from ${portal.url}/Maine/Harrison/1000 · Values as of 04/01/2024, fiscal year 2024 · published on this site`;
    expect(text.replace(/\s+/g, ' ')).toContain(stamp);
    expect(lines.at(-1)).toMatch(/published on this site \d\d\/\d\d\/\d{4}$/);
    // Every header word whole: no "Buildin g" or "Outstandi ng" (no piece of one on a line of its own).
    const words = text.split(/\s+/);
    for (const word of ['Building', 'Outstanding', 'Original', 'Functional', 'Exemption'])
      expect(
        // "Exempt" is a word of its own (the Assessment's label).
        words.filter((w) => w !== word && w.length >= 4 && word.startsWith(w) && w !== 'Exempt'),
        word,
      ).toEqual([]);
    expect(text).toContain('Outstanding');
    for (const control of ['Return to search', 'Pay Now', 'To Print To PDF', 'View photo', 'Next'])
      expect(text, control).not.toContain(control);
  });

  it('printing results prints the results, not the form', async () => {
    await page.goto(searchUrl());
    await expectCount(page, 'Showing 1 to 50 of 120 results');
    const text = await printedText(page);
    expect(text).toContain('Showing 1 to 50 of 120 results');
    expect(text).toContain('10 MAIN ST');
    // The same line a printed record ends with (one definition: components/ui/print-stamp.tsx).
    expect(text.replace(/\s+/g, ' ')).toMatch(
      /Printed \d\d\/\d\d\/\d{4} from \S+\/Maine\/Harrison\/search\S* · Values as of 04\/01\/2024, fiscal year 2024 · published on this site \d\d\/\d\d\/\d{4}/,
    );
    for (const control of ['Advanced search', 'Clear filters', 'Download', 'Search by owner'])
      expect(text, control).not.toContain(control);
  });
});

describe('what the dates mean (issue 48)', () => {
  for (const width of [390, 768, 1024, 1280, 1920]) {
    it(`at ${width} px: the record and the results say the values' date and fiscal year beside the publish day; no empty Last Updated; a small lot's square feet`, async () => {
      const page = await portal.open({ viewport: { width, height: 900 } });
      await page.goto(`/${HARRISON.state}/${HARRISON.city}/1000`);
      await recordShown(page, '10 MAIN ST');
      const asOf = page.locator('.opp-record-head .opp-asof');
      expect(await asOf.innerText()).toMatch(HARRISON_DATES);
      expect(await asOf.isVisible()).toBe(true);
      const box = (await asOf.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(await page.locator('.opp-record-meta').innerText()).toMatch(/Last Updated\s+03\/14\/2025/);
      // A lot under an acre gives its square feet beside the acres (0.25 acres = 10,890 sq ft).
      const lot = page.locator('dt:text-is("Total Acres") + dd');
      expect(await lot.innerText()).toBe('0.25 (10,890 sq ft)');
      expect(await lot.isVisible()).toBe(true);

      // Bridgton's account 1 gives no date of its own: the label is left out, not shown empty.
      await page.goto(`/${BRIDGTON.state}/${BRIDGTON.city}/1`);
      await page.getByRole('heading', { level: 1, name: '1 MAIN ST' }).waitFor();
      await page.locator('.opp-record-head .opp-asof').waitFor();
      const meta = await page.locator('.opp-record-meta').innerText();
      expect(meta).not.toContain('Last Updated');
      expect(meta).toMatch(/Account\s+1/);
      for (const dd of await page.locator('.opp-record-meta dd').allInnerTexts())
        expect(dd.trim()).not.toBe('');
      expect(await page.locator('.opp-record-head .opp-asof').innerText()).toMatch(
        /^Values for fiscal year 2024 · published on this site \d\d\/\d\d\/\d{4}$/,
      );
      await expectNoA11yViolations(page, `record without a date of its own at ${width}`);

      await page.goto(searchUrl('?sort=MapLot'));
      await expectCount(page, 'Showing 1 to 50 of 120 results');
      const results = page.locator('.opp-results .opp-asof');
      expect(await results.innerText()).toMatch(HARRISON_DATES);
      expect(await results.isVisible()).toBe(true);
      await expectNoA11yViolations(page, `results with their dates at ${width}`);
      await page.close();
    });
  }
});

describe('finding a style in a long list (issue 48)', () => {
  for (const width of [390, 768, 1024, 1280, 1920]) {
    it(`at ${width} px: typing narrows the Style choices; the one ticked is searched`, async () => {
      const page = await portal.open({ viewport: { width, height: 900 } });
      await page.goto(`/${CASCO.state}/${CASCO.city}/search?sort=MapLot`);
      await expectCount(page, 'Showing 1 to 12 of 12 results');
      await page.getByRole('button', { name: /Advanced search/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Advanced Search' });
      const styles = dialog.getByRole('group', { name: 'Style' });
      const find = dialog.getByRole('searchbox', { name: 'Find a style' });
      await find.waitFor();
      expect(await styles.getByRole('checkbox').count()).toBe(CASCO_STYLES.length);
      await find.fill('row');
      await expect.poll(() => styles.getByRole('checkbox').count()).toBe(2);
      await dialog.getByText('2 of 12 style choices shown').waitFor();
      // USWDS draws the box on the label; the input itself is hidden.
      await styles.getByText('Row Middle', { exact: true }).click();
      expect(await styles.getByLabel('Row Middle').isChecked()).toBe(true);
      await find.press('Enter');
      expect(await dialog.isVisible()).toBe(true);
      await expectNoA11yViolations(page, `style list narrowed at ${width}`);
      await dialog.getByRole('button', { name: 'Search', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await expectCount(page, 'Showing 1 to 1 of 1 result');
      await page.close();
    });
  }
});
