import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { stepAt, STEP_SECONDS, totp } from '../apps/server/src/features/auth/two-factor.totp.ts';
import { downloadedText, expectNoA11yViolations, screenshot, type TrackedPage } from './support/browser.ts';
import { setUpPortal } from './support/portal-session.ts';
import { buildClient, createUser } from './support/seed.ts';

/*
 * Two-factor sign-in (issue 7) walked in a real browser against a real server: a town's Super
 * Administrator turns it on from Account security (the key shown on the page feeds an authenticator
 * computed here with RFC 6238), signs out and back in with a good code, is refused a wrong code and a
 * replayed one, signs in with a recovery code that then stops working, gets a new set of recovery codes
 * with a code from the app (the old set then stops working), and turns it off again. A
 * provider whose configuration requires two-factor sign-in for provider admins sends an unenrolled
 * provider admin to enrolment and then back to where they were going.
 */

const TOWN = 'Maplewood';
const ADMIN = { username: 'tess.town', password: 'town admin password' };
const PROVIDER = { username: 'pat.provider', password: 'provider admin password' };
const PROVIDER_TWO = { username: 'quinn.provider', password: 'second provider password' };
const adminUrl = `/Maine/${TOWN}/admin`;
const securityUrl = `/Maine/${TOWN}/admin/security`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An authenticator app in the test: each code is for a later 30-second step than the last one used
 * (the server takes a code once, and only steps after the last one), within the one step of drift the
 * server allows either side; it waits for the clock when it has run ahead. The first code is the
 * previous step's, so three codes are to hand before any wait; near the end of a step it waits for the
 * next one rather than race the server's clock across the boundary.
 */
class Authenticator {
  private lastStep = -1;
  lastCode = '';
  constructor(readonly secret: string) {}

  async next(): Promise<string> {
    const intoStep = Date.now() % 30_000;
    if (intoStep > 27_000) await sleep(30_050 - intoStep);
    let step = Math.max(this.lastStep + 1, stepAt(Date.now()) - 1);
    while (step > stepAt(Date.now()) + 1) await sleep(250);
    step = Math.max(step, stepAt(Date.now()));
    this.lastStep = step;
    this.lastCode = totp(this.secret, step * STEP_SECONDS * 1000);
    return this.lastCode;
  }

  /** Six digits no step the server would accept now produces. */
  wrong(): string {
    const now = stepAt(Date.now());
    const valid = new Set([-2, -1, 0, 1, 2].map((d) => totp(this.secret, (now + d) * STEP_SECONDS * 1000)));
    for (let n = 0; ; n++) {
      const candidate = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
      if (!valid.has(candidate)) return candidate;
    }
  }
}

async function a11y(page: TrackedPage, label: string): Promise<void> {
  // A toast fading out is semi-transparent, which axe rightly reports as low contrast.
  await page.mouse.move(0, 0);
  await page.waitForFunction(
    () => document.querySelectorAll('div[role="status"][aria-live="polite"]').length === 0,
    null,
    { timeout: 15_000 },
  );
  await expectNoA11yViolations(page, label);
}

/** Waits until the field has keyboard focus: it returns on the next animation frame after an error shows. */
async function fieldHasFocus(field: Locator): Promise<void> {
  await expect
    .poll(() => field.evaluate((el) => el === document.activeElement), { timeout: 5_000 })
    .toBe(true);
}

/** Waits until keyboard focus is on the heading named `name` (focus moves once the step has rendered). */
async function focusReaches(page: TrackedPage, name: string): Promise<void> {
  await page.waitForFunction((text) => {
    const el = document.activeElement;
    return el !== null && /^H[1-6]$/.test(el.tagName) && el.textContent === text;
  }, name);
}

async function logInWithPassword(page: TrackedPage, who: { username: string; password: string }) {
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/**
 * Turns two-factor sign-in on from the Account security page as it is shown now, and returns the
 * authenticator (fed from the key on the page) and the recovery codes.
 */
async function enrol(page: TrackedPage, label: string) {
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await page.getByRole('heading', { level: 2, name: 'Set up two-factor sign-in' }).waitFor();
  await focusReaches(page, 'Set up two-factor sign-in');

  const shownKey = (await page.locator('code.opp-secret').textContent()) ?? '';
  expect(shownKey).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
  const authenticator = new Authenticator(shownKey.replace(/\s/g, ''));

  const link = page.getByRole('link', { name: 'Open this account in your authenticator app' });
  const uri = (await link.getAttribute('href')) ?? '';
  expect(uri.startsWith('otpauth://totp/')).toBe(true);
  expect(new URL(uri).searchParams.get('secret')).toBe(authenticator.secret);

  const qr = page.getByRole('img', { name: 'QR code to add this account to an authenticator app' });
  await qr.waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('img.opp-qr');
    return img !== null && img.complete && img.naturalWidth > 0;
  });
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
  await a11y(page, `${label} setup`);
  await screenshot(page, `${label} setup`);

  // A wrong code is refused beside the field, and the field keeps focus for the next try.
  const field = page.getByLabel('Authentication code');
  await field.fill(authenticator.wrong());
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await page.getByText('That code was not accepted').waitFor();
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  await fieldHasFocus(field);

  await field.fill(await authenticator.next());
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await page.getByRole('heading', { level: 2, name: 'Save your recovery codes' }).waitFor();
  await focusReaches(page, 'Save your recovery codes');
  const codes = await page.getByRole('list', { name: 'Recovery codes' }).locator('li').allTextContents();
  expect(codes).toHaveLength(10);
  for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  await a11y(page, `${label} recovery codes`);
  return { authenticator, codes };
}

describe('two-factor sign-in for a municipality admin', () => {
  let page: TrackedPage;
  let authenticator: Authenticator;
  let recovery: string[] = [];

  const portal = setUpPortal({
    seed: async (db) => {
      const town = await buildClient(db, { city: TOWN, stateProvince: 'Maine' });
      await createUser(db, { ...ADMIN, roleId: 2, manages: town.id });
    },
  });
  beforeAll(async () => {
    page = await portal.open();
  });

  const codeStep = () => page.getByRole('heading', { level: 2, name: 'Two-factor sign-in' });
  const signedIn = () => page.getByRole('banner').getByText(ADMIN.username);

  async function logOut(): Promise<void> {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByLabel('Username').waitFor();
  }

  /** Signs out, then in again with the password and, at the code step, a recovery code. */
  async function signInAgainWithRecoveryCode(code: string): Promise<void> {
    await logOut();
    await logInWithPassword(page, ADMIN);
    await codeStep().waitFor();
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(code);
    await page.getByRole('button', { name: 'Verify and log in' }).click();
  }

  it('turns two-factor sign-in on from Account security, with the recovery codes shown once', async () => {
    await page.goto(adminUrl);
    await logInWithPassword(page, ADMIN);
    await page.getByRole('heading', { level: 2, name: 'Municipality' }).waitFor();

    await page.getByRole('banner').getByRole('link', { name: 'Account security' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account security' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(securityUrl);
    await page.getByText('Off', { exact: true }).waitFor();
    await a11y(page, 'account security off');

    ({ authenticator, codes: recovery } = await enrol(page, 'municipality admin'));

    // They are never shown again, so leaving asks for a confirmation that they were saved.
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Confirm that you have saved your recovery codes').waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download codes' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('recovery-codes.txt');
    const text = await downloadedText(file);
    for (const c of recovery) expect(text).toContain(c);

    await page.getByText('I have saved my recovery codes somewhere safe').click();
    expect(await page.getByLabel('I have saved my recovery codes somewhere safe').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Two-factor sign-in is on.').waitFor();
    expect(await page.locator('.opp-security-status').textContent()).toBe('StatusOnRecovery codes left10');
    await a11y(page, 'account security on');
  });

  it('asks for a code after the password, refuses a wrong one inline, and signs in with a good one', async () => {
    await logOut();
    await logInWithPassword(page, ADMIN);
    await codeStep().waitFor();
    await focusReaches(page, 'Two-factor sign-in');
    const field = page.getByLabel('Authentication code');
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    await a11y(page, 'login code step');

    await field.fill(authenticator.wrong());
    await field.press('Enter');
    await page.getByText('That code was not accepted').waitFor();
    await fieldHasFocus(field);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'login wrong code');
    // Username and password are kept: a good code alone now signs in.
    await page.getByText(`Signing in as ${ADMIN.username}`).waitFor();

    await field.fill(await authenticator.next());
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await signedIn().waitFor();
    await page.getByRole('heading', { level: 1, name: 'Account security' }).waitFor();
  });

  it('refuses a code that was already used, and takes each recovery code once', async () => {
    const used = authenticator.lastCode;
    await logOut();
    await logInWithPassword(page, ADMIN);
    await codeStep().waitFor();
    await page.getByLabel('Authentication code').fill(used);
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await page.getByText('That code was not accepted').waitFor();

    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recovery[0]!);
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await signedIn().waitFor();
    await expect
      .poll(() => page.locator('.opp-security-status').textContent())
      .toBe('StatusOnRecovery codes left9');

    await signInAgainWithRecoveryCode(recovery[0]!);
    await page.getByText('That code was not accepted').waitFor();

    // The switch goes both ways; another unused recovery code signs in (the app's next code is kept
    // for the next test, so it need not wait for the clock).
    await page.getByRole('button', { name: 'Use the code from your app instead' }).click();
    await page.getByLabel('Authentication code').waitFor();
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recovery[2]!);
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await signedIn().waitFor();
  });

  it('gets new recovery codes with a code from the app; the old ones then stop working', async () => {
    await page.getByRole('heading', { level: 1, name: 'Account security' }).waitFor();
    await page.getByRole('button', { name: 'Get new recovery codes' }).click();
    await page.getByRole('heading', { level: 2, name: 'Get new recovery codes' }).waitFor();
    await focusReaches(page, 'Get new recovery codes');
    await a11y(page, 'new recovery codes');
    const field = page.getByLabel('Authentication code');
    const submit = page.getByRole('button', { name: 'Get new recovery codes' });

    // Only the app proves the person still has it: a recovery code is turned away with the reason.
    await field.fill(recovery[1]!);
    await submit.click();
    await page.getByText('a recovery code cannot be used here').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill(authenticator.wrong());
    await submit.click();
    await page.getByText('That code was not accepted').waitFor();
    await fieldHasFocus(field);

    await field.fill(await authenticator.next());
    await submit.click();
    await page.getByRole('heading', { level: 2, name: 'Save your recovery codes' }).waitFor();
    await focusReaches(page, 'Save your recovery codes');
    await page.getByText('Your old recovery codes no longer work.').waitFor();
    const fresh = await page.getByRole('list', { name: 'Recovery codes' }).locator('li').allTextContents();
    expect(fresh).toHaveLength(10);
    for (const c of fresh) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(fresh.filter((c) => recovery.includes(c))).toEqual([]);
    await a11y(page, 'new recovery codes shown');
    await screenshot(page, 'new recovery codes');

    // Same once-only flow as at enrolment: download, then confirm they were saved.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download codes' }).click();
    const text = await downloadedText(await download);
    for (const c of fresh) expect(text).toContain(c);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Confirm that you have saved your recovery codes').waitFor();
    await page.getByText('I have saved my recovery codes somewhere safe').click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('You have new recovery codes; the old ones no longer work.').waitFor();
    expect(await page.locator('.opp-security-status').textContent()).toBe('StatusOnRecovery codes left10');

    // An old code that was never used is refused at sign-in now; a new one signs in.
    await signInAgainWithRecoveryCode(recovery[1]!);
    await page.getByText('That code was not accepted').waitFor();
    await page.getByLabel('Recovery code').fill(fresh[0]!);
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await signedIn().waitFor();
    // The page may first show the count it had before signing out (the cache outlives a town admin's
    // sign-out), then the server's.
    await expect
      .poll(() => page.locator('.opp-security-status').textContent())
      .toBe('StatusOnRecovery codes left9');
    recovery = fresh;
  });

  it('turns two-factor sign-in off with a recovery code; then the password alone signs in', async () => {
    await page.getByRole('heading', { level: 1, name: 'Account security' }).waitFor();
    await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await page.getByRole('heading', { level: 2, name: 'Turn off two-factor sign-in' }).waitFor();
    await a11y(page, 'turn off two-factor');
    await page.getByLabel('Authentication code').fill(authenticator.wrong());
    await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await page.getByText('That code was not accepted').waitFor();
    // Someone without their phone at hand proves it with a recovery code instead.
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recovery[1]!);
    await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await page.getByText('Two-factor sign-in is off.').waitFor();

    await logOut();
    await logInWithPassword(page, ADMIN);
    await signedIn().waitFor();
    await page.getByRole('heading', { level: 1, name: 'Account security' }).waitFor();
    expect(await page.getByLabel('Authentication code').count()).toBe(0);
    expect(page.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });
});

describe('two-factor sign-in required for provider admins', () => {
  let page: TrackedPage;

  const portal = setUpPortal({
    env: { REQUIRE_TOTP_FOR_PROVIDER: '1' },
    seed: async (db) => {
      await buildClient(db, { city: TOWN, stateProvince: 'Maine' });
      await createUser(db, { ...PROVIDER, roleId: 1 });
      await createUser(db, { ...PROVIDER_TWO, roleId: 1 });
    },
  });
  beforeAll(async () => {
    page = await portal.open();
  });

  it('sends an unenrolled provider admin to enrolment, then on to the console', async () => {
    await page.goto('/admin');
    await logInWithPassword(page, PROVIDER);
    await page.getByRole('heading', { level: 1, name: 'Account security' }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/admin/security');
    expect(url.searchParams.get('next')).toBe('/admin');
    await page.getByRole('heading', { name: 'Two-factor sign-in is required' }).waitFor();
    await page
      .getByText('Provider administrators must turn on two-factor sign-in before continuing')
      .waitFor();
    await a11y(page, 'provider enrolment required');
    await screenshot(page, 'provider enrolment required');

    await enrol(page, 'provider admin');
    await page.getByText('I have saved my recovery codes somewhere safe').click();
    expect(await page.getByLabel('I have saved my recovery codes somewhere safe').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Provider console' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');

    // The provider requires it, so the page offers no way to turn it off.
    await page.getByRole('banner').getByRole('link', { name: 'Account security' }).click();
    await page
      .getByText('Your provider requires two-factor sign-in for your account, so it stays on.')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).count()).toBe(0);
    // …but new recovery codes are still theirs to get.
    await page.getByRole('button', { name: 'Get new recovery codes' }).click();
    await page.getByRole('heading', { level: 2, name: 'Get new recovery codes' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByText('Your provider requires two-factor sign-in for your account, so it stays on.')
      .waitFor();
    expect(page.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });

  it('sends an unenrolled provider admin from a town’s admin page to that town’s enrolment', async () => {
    const other = await portal.open();
    try {
      await other.goto(adminUrl);
      await logInWithPassword(other, PROVIDER_TWO);
      await other.getByRole('heading', { level: 1, name: 'Account security' }).waitFor();
      const url = new URL(other.url());
      expect(url.pathname).toBe(securityUrl);
      expect(url.searchParams.get('next')).toBe(adminUrl);
      await other.getByRole('heading', { name: 'Two-factor sign-in is required' }).waitFor();
      expect(other.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
