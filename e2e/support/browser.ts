import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/*
 * Debian's Chromium (/usr/bin/chromium) driven by playwright-core; no browser is ever downloaded.
 * Install it with `apt-get install -y chromium` when missing.
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, '../artifacts');
export const SCREENSHOTS_DIR = path.join(ARTIFACTS_DIR, 'screenshots');

export const DESKTOP = { width: 1280, height: 900 } as const;
export const MOBILE = { width: 375, height: 812 } as const;

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}. Install it: apt-get install -y chromium`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
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
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('close', () => {
    void context.close().catch(() => {});
  });
  return page;
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
 * Saves a PNG as e2e/artifacts/screenshots/{name}.png and returns its path: the full page by default,
 * the viewport with `fullPage: false` (an open modal covers only the viewport).
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${slug(name)}.png`);
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
