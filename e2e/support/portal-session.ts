import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, newPage, type NewPageOptions, type TrackedPage } from './browser.ts';
import { startPortal, type Portal, type StartPortalOptions } from './portal.ts';

export interface BrowserPortal {
  /** Base URL such as http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  /** A page on the portal in a context of its own (fresh storage), closed with the portal. */
  open(options?: NewPageOptions): Promise<TrackedPage>;
}

export interface BrowserPortalOptions extends StartPortalOptions {
  /** What every page opened on this portal starts with (a longer or shorter wait), before open()'s own. */
  page?: NewPageOptions;
  /** How long seeding and starting may take (the e2e project's hookTimeout otherwise). */
  startTimeoutMs?: number;
}

/**
 * What every browser-test file or block sets up: a portal over a seeded database (startPortal) and a
 * connection to the run's Chromium, started before its tests and closed after them, with every page
 * opened on it. Call it at the top of a file or of a describe block.
 */
export function setUpPortal({
  page: pageDefaults,
  startTimeoutMs,
  ...portalOptions
}: BrowserPortalOptions = {}): BrowserPortal {
  let portal: Portal | undefined;
  let browser: Browser | undefined;
  const pages = new Set<TrackedPage>();
  const started = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('The portal starts in beforeAll: use it inside a test or a hook');
    return value;
  };

  beforeAll(async () => {
    portal = await startPortal(portalOptions);
    browser = await launchBrowser();
  }, startTimeoutMs);
  afterAll(async () => {
    await Promise.all([...pages].map((p) => p.close().catch(() => {})));
    await browser?.close();
    await portal?.close();
  });

  return {
    get url() {
      return started(portal).url;
    },
    async open(options = {}) {
      const page = await newPage(started(browser), {
        baseURL: started(portal).url,
        ...pageDefaults,
        ...options,
      });
      pages.add(page);
      page.on('close', () => pages.delete(page));
      return page;
    },
  };
}
