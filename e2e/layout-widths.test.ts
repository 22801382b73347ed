import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoA11yViolations,
  settle,
  SCREENSHOTS_DIR,
  SCREENSHOTS_WANTED,
  type TrackedPage,
} from './support/browser.ts';
import { setUpPortal } from './support/portal-session.ts';
import { HARRISON, seedPublicTowns } from './support/public-fixture.ts';
import { buildClient, createUser } from './support/seed.ts';

/*
 * Every page at every width from a small phone to a desktop (issue 38): nothing outside the viewport,
 * no table clipped (a table too wide scrolls inside its own region), the login form a proper width,
 * admin Edit/Delete on screen at 375 px, no button or column header of the admin pages broken inside a
 * word ("Edi/t", "I/D"; issue 48), and axe-core still clean. With E2E_SCREENSHOTS=1 (or SCREENS_DIR
 * set), screenshots of each page at 375, 800, 1,024 and 1,280 px go to $SCREENS_DIR (or
 * e2e/artifacts/screenshots) to be looked at.
 */

const ALL_WIDTHS = [320, 375, 390, 600, 768, 800, 1024, 1280, 1920];
/** LAYOUT_WIDTHS=375,800 runs only those (while working on one layout). */
const WIDTHS = process.env.LAYOUT_WIDTHS ? process.env.LAYOUT_WIDTHS.split(',').map(Number) : ALL_WIDTHS;
const SCREENSHOT_WIDTHS = new Set<number>([375, 800, 1024, 1280]);
/**
 * axe-core at the narrowest, a tablet's and the widest width: public-a11y.test.ts checks the public pages
 * at 375 and 1,280 px and the console's own files check its screens; what changes between neighbouring
 * widths is layout, which outsideViewport checks at every one (an axe pass of the seven pages costs
 * about as much as the rest of a width's checks).
 */
const AXE_WIDTHS = new Set<number>([320, 768, 1920]);
const SCREENS_DIR = process.env.SCREENS_DIR ?? SCREENSHOTS_DIR;

const TOWN_ADMIN = { username: 'tina.town', password: 'town admin password' };
const OTHER_ADMIN = { username: 'oscar.otherwise-long-username', password: 'other admin password' };
const PROVIDER = { username: 'pat.provider', password: 'provider password 123' };

const portal = setUpPortal({
  page: { timeoutMs: 20_000 },
  seed: async (db) => {
    const { harrisonId } = await seedPublicTowns(db);
    await createUser(db, { ...TOWN_ADMIN, roleId: 2, manages: harrisonId });
    await createUser(db, { ...OTHER_ADMIN, roleId: 3, manages: harrisonId });
    await createUser(db, { ...PROVIDER, roleId: 1 });
    // A long name with both tags: the console's client list is squeezed where a short one never is.
    await buildClient(db, {
      city: 'Manchester-by-the-Sea',
      stateProvince: 'Massachusetts',
      isActive: false,
      isProduction: false,
    });
  },
});

/**
 * What lies outside the viewport: the page scrolling sideways, any visible element reaching past either
 * edge (unless it is inside a region that scrolls sideways on its own), and any table wider than the
 * screen that is not inside such a region (clipped, unreachable).
 */
async function outsideViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const found: string[] = [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    if (document.documentElement.scrollWidth > vw)
      found.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${vw})`);
    const scrolls = (el: Element | null): boolean => {
      for (let a = el?.parentElement; a && a !== document.body; a = a.parentElement) {
        const o = getComputedStyle(a).overflowX;
        if (o === 'auto' || o === 'scroll') return true;
      }
      return false;
    };
    const hiddenText = (el: Element) =>
      !!el.closest('.opp-visually-hidden, .usa-sr-only, .usa-checkbox__input, .usa-radio__input') ||
      getComputedStyle(el).visibility === 'hidden';
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || hiddenText(el) || scrolls(el)) continue;
      if (r.right > vw + 1 || r.left < -1)
        found.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    for (const table of Array.from(document.querySelectorAll('table'))) {
      const r = table.getBoundingClientRect();
      if (r.width > 0 && r.right > vw + 1 && !scrolls(table)) found.push(`table clipped: ${name(table)}`);
      // Clipped by an ancestor that hides its overflow (the page's own or a container's).
      for (let a = table.parentElement; a; a = a.parentElement) {
        const o = getComputedStyle(a).overflowX;
        if (o === 'auto' || o === 'scroll') break;
        if ((o === 'hidden' || o === 'clip') && table.scrollWidth > a.clientWidth + 1)
          found.push(`table clipped by ${name(a)}`);
      }
    }
    return [...new Set(found)].slice(0, 15);
  });
}

/** Regions that scroll sideways because their content is wider than they are (allowed, but not wanted). */
async function sidewaysRegions(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('main *'))
      .filter((el) => {
        const o = getComputedStyle(el).overflowX;
        return (o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      })
      .map((el) => `${el.className} (${el.scrollWidth} in ${el.clientWidth})`),
  );
}

/**
 * Words of buttons, tab links and column headers that the layout breaks across lines ("Edi" above "t"),
 * each with where it is. Breaking between words, or after a hyphen or slash, is allowed.
 */
async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const targets = document.querySelectorAll(
      'main thead th, main button, main .usa-button, main nav a, main [role="tab"]',
    );
    for (const el of Array.from(targets)) {
      if (el.getBoundingClientRect().width === 0) continue;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement?.closest('.opp-visually-hidden, .usa-sr-only')) continue;
        const text = node.textContent ?? '';
        for (const word of text.matchAll(/[^\s\-/–—]+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set(
            Array.from(range.getClientRects())
              .filter((r) => r.width > 0)
              .map((r) => Math.round(r.bottom)),
          );
          if (lines.size > 1)
            found.push(`"${word[0]}" in ${el.tagName.toLowerCase()} "${el.textContent?.trim()}"`);
        }
      }
    }
    return found;
  });
}

async function shoot(page: Page, name: string, width: number) {
  if (!SCREENSHOT_WIDTHS.has(width) || !(SCREENSHOTS_WANTED || process.env.SCREENS_DIR)) return;
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}-${width}.png`), fullPage: true });
}

async function signIn(page: Page, url: string, user: { username: string; password: string }) {
  await page.goto(url);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByLabel('Password').press('Enter');
}

describe('every page at every width', () => {
  let visitor: TrackedPage;
  let townAdmin: TrackedPage;
  let provider: TrackedPage;
  beforeAll(async () => {
    visitor = await portal.open();
    townAdmin = await portal.open();
    provider = await portal.open();
    await signIn(townAdmin, `/${HARRISON.state}/${HARRISON.city}/admin`, TOWN_ADMIN);
    await townAdmin.getByRole('heading', { name: 'Admins' }).waitFor();
    await signIn(provider, '/admin', PROVIDER);
    await provider.getByRole('heading', { name: 'Provider console' }).waitFor();
  });

  const expectInside = async (page: Page, label: string, width: number) => {
    expect(await outsideViewport(page), `${label}: content outside the viewport`).toEqual([]);
    if (AXE_WIDTHS.has(width)) await expectNoA11yViolations(page, label);
  };
  const expectWholeWords = async (page: Page, label: string) =>
    expect(await brokenWords(page), `${label}: words broken across lines`).toEqual([]);

  for (const width of WIDTHS) {
    it(`at ${width} px`, async () => {
      const viewport = { width, height: width < 768 ? 812 : 900 };
      for (const p of [visitor, townAdmin, provider]) await p.setViewportSize(viewport);

      await visitor.goto('/');
      await visitor
        .getByLabel('Community')
        .locator('option', { hasText: 'Harrison' })
        .waitFor({ state: 'attached' });
      await expectInside(visitor, `home at ${width}`, width);
      await shoot(visitor, 'home', width);

      await visitor.goto(`/${HARRISON.state}/${HARRISON.city}/search?view=list`);
      await visitor.locator('.opp-results-table tbody tr').first().waitFor();
      await settle(visitor);
      await expectInside(visitor, `results list at ${width}`, width);
      // The results table fits: no column to scroll to, and no header broken inside a word ("Buil/t").
      expect(await sidewaysRegions(visitor), `results list at ${width}`).toEqual([]);
      await expectWholeWords(visitor, `results list at ${width}`);
      await shoot(visitor, 'results-list', width);

      await visitor.goto(`/${HARRISON.state}/${HARRISON.city}/search?view=grid`);
      await visitor.getByRole('list', { name: 'Search results' }).waitFor();
      await settle(visitor);
      await expectInside(visitor, `results grid at ${width}`, width);
      await shoot(visitor, 'results-grid', width);

      await visitor.goto(`/${HARRISON.state}/${HARRISON.city}/1000`);
      await visitor.getByRole('table', { name: 'Tax details' }).waitFor();
      await settle(visitor);
      await expectInside(visitor, `record at ${width}`, width);
      // Every Tax Details column can be read: its cells are on screen or in a region that scrolls to them.
      const outstanding = visitor.getByRole('table', { name: 'Tax details' }).getByText('$1,234.56');
      await outstanding.scrollIntoViewIfNeeded();
      expect(await outstanding.isVisible()).toBe(true);
      await shoot(visitor, 'record', width);

      await visitor.goto(`/${HARRISON.state}/${HARRISON.city}/admin`);
      const user = visitor.getByLabel('Username');
      await user.waitFor();
      await expectInside(visitor, `login at ${width}`, width);
      // A proper form width: the fields are at least 18rem wide whenever the screen allows it.
      const field = (await user.boundingBox())!;
      expect(field.width).toBeGreaterThanOrEqual(Math.min(288, width - 48));
      await shoot(visitor, 'login', width);

      await townAdmin.goto(`/${HARRISON.state}/${HARRISON.city}/admin`);
      await townAdmin.getByRole('button', { name: `Edit ${OTHER_ADMIN.username}` }).waitFor();
      await settle(townAdmin);
      await expectInside(townAdmin, `town admin at ${width}`, width);
      await expectWholeWords(townAdmin, `town admin at ${width}`);
      expect(await sidewaysRegions(townAdmin), `town admin at ${width}`).toEqual([]);
      // Every row's Edit and Delete are on screen (not scrolled off to the right of a table).
      for (const button of await townAdmin.getByRole('button', { name: /^(Edit|Delete) / }).all()) {
        const box = (await button.boundingBox())!;
        expect(box.x + box.width, (await button.getAttribute('aria-label')) ?? '').toBeLessThanOrEqual(width);
      }
      await shoot(townAdmin, 'town-admin', width);

      await provider.goto('/admin');
      await provider.getByRole('heading', { name: 'Provider console' }).waitFor();
      await provider.getByRole('link', { name: /^Edit Harrison/ }).waitFor();
      await settle(provider);
      await expectInside(provider, `provider console at ${width}`, width);
      await expectWholeWords(provider, `provider console at ${width}`);
      expect(await sidewaysRegions(provider), `provider console at ${width}`).toEqual([]);
      await shoot(provider, 'provider-console', width);

      // The client's page (issue 48): its details, then its roll publishing with the history's table.
      await provider.getByRole('link', { name: /^Edit Harrison/ }).click();
      await provider.getByRole('button', { name: 'Update' }).waitFor();
      await settle(provider);
      await expectInside(provider, `client page at ${width}`, width);
      await expectWholeWords(provider, `client page at ${width}`);
      // Delete says so in words, away from Update.
      const remove = provider.getByRole('button', { name: /^Delete Harrison/ });
      expect(await remove.innerText()).toMatch(/^Delete Harrison/);
      const update = (await provider.getByRole('button', { name: 'Update' }).boundingBox())!;
      const del = (await remove.boundingBox())!;
      expect(del.y, 'Delete sits below the form, not beside Update').toBeGreaterThan(
        update.y + update.height,
      );
      await shoot(provider, 'client-page', width);
      await provider.getByRole('link', { name: 'Roll publishing' }).click();
      await provider.getByRole('heading', { name: 'Import history' }).waitFor();
      await settle(provider);
      await expectInside(provider, `client roll publishing at ${width}`, width);
      await expectWholeWords(provider, `client roll publishing at ${width}`);
      await shoot(provider, 'client-roll', width);
    });
  }

  it('had no page errors', () => {
    expect([...visitor.errors, ...townAdmin.errors, ...provider.errors]).toEqual([]);
  });
});
