import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Download, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchOptions } from './chromium.ts';

export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, '../artifacts');
export const SCREENSHOTS_DIR = path.join(ARTIFACTS_DIR, 'screenshots');
/**
 * Screenshots are for a person to look at (E2E_SCREENSHOTS=1 writes them); no test reads them back, and
 * a full-page capture of every screen at every width cost the CI run about a minute.
 */
export const SCREENSHOTS_WANTED = process.env.E2E_SCREENSHOTS === '1';

export const DESKTOP = { width: 1280, height: 900 } as const;
export const MOBILE = { width: 375, height: 812 } as const;

/**
 * The run's Chromium (browser-server.ts starts one for all the e2e files): a test file connects to it,
 * about 1.8 s less than launching its own, and every page still gets a context of its own. Closing it
 * disconnects this file only. Outside a run that started one, a Chromium of its own.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = inject('chromiumEndpoint');
  return shared ? chromium.connect(shared) : chromium.launch(launchOptions());
}

/** A download's text, read through the browser's connection (a shared browser keeps no local path). */
export async function downloadedText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface NewPageOptions {
  viewport?: { width: number; height: number };
  /** Base URL for relative page.goto() calls. */
  baseURL?: string;
  /** Default wait for locators and navigation (Playwright's default is 30 s). */
  timeoutMs?: number;
}

export interface TrackedPage extends Page {
  /** Uncaught page errors and console errors seen so far (a clean page has none). */
  readonly errors: string[];
  /** Requests the page has started and not yet finished (see settle). */
  readonly inFlight: number;
}

/** A page in its own context (fresh storage), with page errors and console errors collected. */
export async function newPage(browser: Browser, options: NewPageOptions = {}): Promise<TrackedPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    baseURL: options.baseURL,
    locale: 'en-US',
    timezoneId: 'America/New_York',
    reducedMotion: 'reduce',
  });
  const page = (await context.newPage()) as TrackedPage;
  if (options.timeoutMs) page.setDefaultTimeout(options.timeoutMs);
  const errors: string[] = [];
  Object.defineProperty(page, 'errors', { value: errors });
  let inFlight = 0;
  Object.defineProperty(page, 'inFlight', { get: () => inFlight });
  page.on('request', () => inFlight++);
  page.on('requestfinished', () => inFlight--);
  page.on('requestfailed', () => inFlight--);
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('close', () => {
    void context.close().catch(() => {});
  });
  return page;
}

/** How long the page must have no request in flight to count as settled. */
const QUIET_MS = 100;

/**
 * Waits until the page has loaded what it asked for (data, images, fonts): no request in flight for
 * QUIET_MS, through a rendered frame, so a request that a render starts is seen before the page counts
 * as settled. Playwright's 'networkidle' waits for 500 ms of silence each time, and the layout and
 * accessibility walks settle about fifty pages a run.
 */
export async function settle(page: TrackedPage, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietSince = 0;
  for (;;) {
    if (page.inFlight > 0) quietSince = 0;
    else if (!quietSince) quietSince = Date.now();
    else if (Date.now() - quietSince >= QUIET_MS) {
      // A frame (or, should the page not be painting, 100 ms), then fonts: either may start requests.
      await page.evaluate(async () => {
        await new Promise((resolve) => {
          requestAnimationFrame(() => setTimeout(resolve, 0));
          setTimeout(resolve, 100);
        });
        await document.fonts.ready;
      });
      if (page.inFlight === 0) return;
      quietSince = 0;
    }
    if (Date.now() > deadline) throw new Error(`the page still had ${page.inFlight} request(s) in flight`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; html: string; failureSummary: string }[];
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Runs axe-core (WCAG 2.1 A and AA rules) on the page as it is now and returns the violations. */
export async function checkA11y(page: Page, label: string): Promise<A11yViolation[]> {
  const hasAxe = await page.evaluate(() => 'axe' in window);
  // Evaluated through the DevTools protocol: the portal's CSP (script-src 'self') would block a <script>.
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, { runOnly: { type: 'tag', values: tags } })) as {
      violations: A11yViolation[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })),
    }));
  }, WCAG_TAGS);
  if (violations.length) {
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    fs.writeFileSync(
      path.join(ARTIFACTS_DIR, `a11y-${slug(label)}.json`),
      JSON.stringify(violations, null, 2),
    );
  }
  return violations;
}

/** Throws a readable error listing each WCAG 2.1 A/AA violation (rule, help text, offending elements). */
export async function expectNoA11yViolations(page: Page, label: string): Promise<void> {
  const violations = await checkA11y(page, label);
  if (violations.length === 0) return;
  const text = violations
    .map(
      (v) =>
        `- ${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')}: ${n.html.slice(0, 160)}`)
          .join('\n'),
    )
    .join('\n');
  throw new Error(`axe-core found ${violations.length} WCAG 2.1 A/AA violation(s) on ${label}:\n${text}`);
}

/**
 * With E2E_SCREENSHOTS=1, saves a PNG as e2e/artifacts/screenshots/{name}.png; returns its path: the
 * full page by default, the viewport with `fullPage: false` (an open modal covers only the viewport).
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  const file = path.join(SCREENSHOTS_DIR, `${slug(name)}.png`);
  if (!SCREENSHOTS_WANTED) return file;
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  return file;
}

/** True when the page is wider than the viewport (horizontal scrolling). */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(
    () => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) > window.innerWidth,
  );
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
