import fs from 'node:fs';

/*
 * Debian's Chromium (/usr/bin/chromium) driven by playwright-core; no browser is ever downloaded.
 * Install it with `apt-get install -y chromium` when missing.
 */

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** How every browser of the tests starts (browser-server.ts, or browser.ts without one). */
export function launchOptions() {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}. Install it: apt-get install -y chromium`);
  return {
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
  };
}
