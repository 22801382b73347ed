import sharp from 'sharp';
import type { Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  expectNoA11yViolations,
  hasHorizontalScroll,
  MOBILE,
  screenshot,
  type TrackedPage,
} from './support/browser.ts';
import { setUpPortal } from './support/portal-session.ts';
import { buildClient, createUser, publishRoll } from './support/seed.ts';

/*
 * The municipality admin area walked as a town's Super Administrator would (issue 5): sign in, rename
 * the town, upload / replace / remove its banner (checking the public page each time), add, edit,
 * filter and delete contacts (checking the public Contact Info modal), add a Site Administrator, sign
 * in as them and find no admin management, log out. axe-core checks the login page, the admin page and
 * every modal on the way.
 */

const SUPER = { username: 'sam.super', password: 'super admin password' };
const SITE = { username: 'sally.site', email: 'sally@maplewood.example', password: 'site admin password' };
const OLD_CITY = 'Maplewood';
const NEW_CITY = 'Maplewood Falls';

const png = () =>
  sharp({ create: { width: 900, height: 160, channels: 3, background: '#1a4480' } })
    .png()
    .toBuffer();
const jpeg = () =>
  sharp({ create: { width: 900, height: 160, channels: 3, background: '#b50909' } })
    .jpeg()
    .toBuffer();

describe('municipality admin', () => {
  let page: TrackedPage;
  let clientId = 0;

  const portal = setUpPortal({
    seed: async (db) => {
      const town = await buildClient(db, {
        city: OLD_CITY,
        stateProvince: 'Maine',
        description: `Town of ${OLD_CITY}`,
      });
      clientId = town.id;
      await publishRoll(db, town.id, [
        { Account: '1', StreetNumber: '5', StreetName: 'Elm St', Owners: [{ OwnerName: 'ROWE ADA' }] },
      ]);
      await createUser(db, { ...SUPER, roleId: 2, manages: town.id });
    },
  });
  beforeAll(async () => {
    page = await portal.open();
  });

  const dialog = (name: string | RegExp) => page.getByRole('dialog', { name });
  const adminUrl = (city: string) => `/Maine/${encodeURIComponent(city)}/admin`;
  const searchUrl = (city: string) => `/Maine/${encodeURIComponent(city)}/search`;
  const responseTo = (method: string, path: RegExp) =>
    page.waitForResponse(
      (r: Response) => r.request().method() === method && path.test(new URL(r.url()).pathname),
    );
  const section = (heading: string) =>
    page.locator('section').filter({ has: page.getByRole('heading', { level: 2, name: heading }) });

  /**
   * Waits until every toast has timed out and left the page. A toast fading out is semi-transparent,
   * which axe-core rightly reports as low contrast; a toast on screen is checked like everything else.
   */
  async function toastsGone(): Promise<void> {
    // react-hot-toast pauses its timers while the pointer rests on a toast.
    await page.mouse.move(0, 0);
    await page.waitForFunction(
      () => document.querySelectorAll('div[role="status"][aria-live="polite"]').length === 0,
      null,
      {
        timeout: 15_000,
      },
    );
  }

  async function a11y(label: string): Promise<void> {
    await toastsGone();
    await expectNoA11yViolations(page, label);
  }

  async function save(): Promise<void> {
    const patched = responseTo('PATCH', /^\/api\/client\/\d+$/);
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await patched).status()).toBe(200);
    await page.getByText('Client saved').first().waitFor();
  }

  /** The banner the public search page shows: its file URL once it has loaded, or null for none. */
  async function publicBanner(city: string): Promise<string | null> {
    const publicPage = await portal.open();
    try {
      await publicPage.goto(searchUrl(city));
      await publicPage.getByRole('heading', { level: 1 }).waitFor();
      const img = publicPage.locator('h1 img');
      if ((await img.count()) === 0) return null;
      await img.evaluate((el: HTMLImageElement) =>
        el.complete
          ? undefined
          : new Promise((resolve) => el.addEventListener('load', resolve, { once: true })),
      );
      expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(900);
      return await img.getAttribute('src');
    } finally {
      await publicPage.close();
    }
  }

  it('shows the town’s login page, refuses a wrong password, and signs the Super Administrator in', async () => {
    await page.goto(adminUrl(OLD_CITY));
    await page.getByRole('heading', { level: 1, name: `${OLD_CITY}, Maine` }).waitFor();
    await a11y('municipality login');
    await page.getByLabel('Username').fill(SUPER.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByLabel('Password').press('Enter');
    await page.getByText('Username or password was incorrect').waitFor();

    await page.getByLabel('Password').fill(SUPER.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('heading', { level: 2, name: 'Municipality' }).waitFor();
    expect(await page.getByRole('banner').getByText(SUPER.username).isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('UserId'))).not.toBe('null');
    await section('Contacts').getByText('No contacts yet.').waitFor();
    await section('Admins').getByRole('rowheader', { name: SUPER.username }).waitFor();
    await a11y('municipality admin page');
    await screenshot(page, 'municipality-admin');
    // A phone-sized screen scrolls down, never sideways (tables scroll inside their own box).
    await page.setViewportSize(MOBILE);
    const wide = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('body *'))
        .filter(
          (el) =>
            el.getBoundingClientRect().right > window.innerWidth + 1 &&
            !el.closest('.usa-table-container--scrollable'),
        )
        .slice(0, 8)
        .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
    );
    expect(wide).toEqual([]);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await screenshot(page, 'municipality-admin-mobile');
    await page.setViewportSize(DESKTOP);
  });

  it('renames the town, moves to the new admin URL, and the old public URL still finds the town', async () => {
    await page.getByLabel('City/Town').fill(NEW_CITY);
    await save();
    await page.waitForURL((u) => decodeURIComponent(u.pathname) === `/Maine/${NEW_CITY}/admin`);
    await page.getByRole('heading', { level: 1, name: `${NEW_CITY}, Maine` }).waitFor();

    const visitor = await portal.open();
    await visitor.goto(searchUrl(OLD_CITY));
    await visitor.getByRole('heading', { level: 1, name: `${NEW_CITY}, Maine` }).waitFor();
    await visitor.close();
  });

  it('uploads, replaces and removes the banner; the public page shows each state', async () => {
    const banner = page.getByLabel('Banner Image');
    await banner.setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: await png() });
    await page.getByRole('img', { name: /preview/ }).waitFor();
    const created = responseTo('POST', /^\/api\/image$/);
    await save();
    expect((await created).status()).toBe(201);
    const first = await publicBanner(NEW_CITY);
    expect(first).toMatch(/^\/api\/files\/image\/[a-f0-9]{32}\.png$/);

    await banner.setInputFiles({ name: 'banner.jpg', mimeType: 'image/jpeg', buffer: await jpeg() });
    const replaced = responseTo('PATCH', /^\/api\/image\//);
    await save();
    expect((await replaced).status()).toBe(200);
    const second = await publicBanner(NEW_CITY);
    expect(second).toMatch(/\.jpg$/);
    expect(second).not.toBe(first);
    expect((await page.request.get(`${portal.url}${first}`)).status()).toBe(404);

    await page.getByRole('button', { name: 'Remove banner image' }).click();
    await page.getByText('No banner image').waitFor();
    const deleted = responseTo('DELETE', /^\/api\/image\//);
    await save();
    expect((await deleted).status()).toBe(200);
    expect(await publicBanner(NEW_CITY)).toBeNull();
  });

  it('adds, edits, filters and deletes contacts; the public Contact Info modal shows them', async () => {
    const contacts = section('Contacts');
    const addContact = async (title: string, phone: string) => {
      await contacts.getByRole('button', { name: 'Add contact' }).click();
      const modal = dialog('Contact Info');
      await modal.waitFor();
      await modal.getByLabel('Name/Title').fill(title);
      await modal.getByLabel('Phone Number').fill(phone);
      await modal.getByLabel('Home URL').fill('www.maplewood.example.gov');
      const saved = responseTo('POST', /^\/api\/contact$/);
      await modal.getByRole('button', { name: 'Update' }).click();
      expect((await saved).status()).toBe(201);
      await modal.waitFor({ state: 'detached' });
    };

    await contacts.getByRole('button', { name: 'Add contact' }).click();
    const modal = dialog('Contact Info');
    await modal.waitFor();
    await a11y('contact modal');
    // The server's own message, shown in the modal.
    await modal.getByLabel('Name/Title').fill('Town Clerk');
    await modal.getByLabel('Email Address').fill('clerk at town hall');
    await modal.getByRole('button', { name: 'Update' }).click();
    await modal.getByText('Email Address is not a valid email').waitFor();
    await page.getByText('An error occured').first().waitFor();
    await a11y('contact modal with an error');
    await screenshot(page, 'contact modal with an error');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    await addContact('Town Clerk', '207-555-0100');
    await page.getByText('Contact saved').first().waitFor();
    await contacts.getByRole('rowheader', { name: 'Town Clerk' }).waitFor();

    await contacts.getByRole('button', { name: 'Edit Town Clerk' }).click();
    await modal.waitFor();
    // Stored as the link a browser would open (URL.href), so the bare host gains its slash.
    expect(await modal.getByLabel('Home URL').inputValue()).toBe('https://www.maplewood.example.gov/');
    await modal.getByLabel('Name/Title').fill('Town Clerk & Registrar');
    await modal.getByLabel('Hours of Operation').fill('Mon–Fri 8–4');
    const updated = responseTo('PUT', /^\/api\/contact\/\d+$/);
    await modal.getByRole('button', { name: 'Update' }).click();
    expect((await updated).status()).toBe(200);
    await contacts.getByRole('rowheader', { name: 'Town Clerk & Registrar' }).waitFor();

    const visitor = await portal.open();
    await visitor.goto(searchUrl(NEW_CITY));
    await visitor.getByRole('button', { name: `Contact information for ${NEW_CITY}, Maine` }).click();
    const info = visitor.getByRole('dialog', { name: 'Contact Info' });
    await info.getByText('Town Clerk & Registrar').waitFor();
    expect(await info.getByText('Mon–Fri 8–4').isVisible()).toBe(true);
    await visitor.close();

    await addContact('Assessor', '207-555-0199');
    await contacts.getByRole('rowheader', { name: 'Assessor' }).waitFor();
    await contacts.getByLabel('Filter contacts by name or title').fill('CLERK');
    expect(await contacts.getByRole('rowheader').count()).toBe(1);
    await contacts.getByRole('rowheader', { name: 'Town Clerk & Registrar' }).waitFor();
    await contacts.getByLabel('Filter contacts by name or title').fill('');
    expect(await contacts.getByRole('rowheader').count()).toBe(2);

    await contacts.getByRole('button', { name: 'Delete Assessor' }).click();
    const confirm = dialog('Delete contact?');
    await confirm.waitFor();
    await a11y('delete contact confirmation');
    const removed = responseTo('DELETE', /^\/api\/contact\/\d+$/);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    expect((await removed).status()).toBe(200);
    await page.getByText('Contact deleted').first().waitFor();
    await contacts.getByRole('rowheader', { name: 'Assessor' }).waitFor({ state: 'detached' });
  });

  it('adds a Site Administrator (after a password mismatch) who then cannot manage admins', async () => {
    const admins = section('Admins');
    await admins.getByRole('button', { name: 'Add admin' }).click();
    const modal = dialog('Add Site Admin');
    await modal.waitFor();
    await a11y('site admin modal');
    await screenshot(page, 'site admin modal');
    expect(await modal.getByLabel('Site Administrator').isChecked()).toBe(true);
    expect(await modal.getByLabel('Super Administrator').isChecked()).toBe(false);
    await modal.getByLabel('Username').fill(SITE.username);
    await modal.getByLabel('Email Address').fill(SITE.email);
    await modal.getByLabel(/^Password/).fill(SITE.password);
    await modal.getByLabel('Confirm Password').fill(`${SITE.password}!`);
    await modal.getByRole('button', { name: 'Update' }).click();
    await modal.getByRole('alert').getByText('Passwords do not match').waitFor();
    await page.getByText('Passwords do not match').first().waitFor();
    await modal.getByLabel('Confirm Password').fill(SITE.password);
    const created = responseTo('POST', /^\/api\/user$/);
    await modal.getByRole('button', { name: 'Update' }).click();
    expect((await created).status()).toBe(201);
    await page.getByText('Admin saved').first().waitFor();
    await admins.getByRole('rowheader', { name: SITE.username }).waitFor();
    // Your own row offers no Edit or Delete.
    expect(await admins.getByRole('button', { name: `Edit ${SUPER.username}` }).count()).toBe(0);
    expect(await admins.getByRole('button', { name: `Edit ${SITE.username}` }).count()).toBe(1);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBe('null');

    await page.getByLabel('Username').fill(SITE.username);
    await page.getByLabel('Password').fill(SITE.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Contacts' }).waitFor();
    expect(await page.getByRole('heading', { level: 2, name: 'Admins' }).count()).toBe(0);
    await a11y('municipality admin page as a site admin');

    // The server agrees: with the Site Administrator's own token, admin management is refused.
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('accessToken') ?? 'null') as string,
    );
    const list = await page.request.get(`${portal.url}/api/users/${clientId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.status()).toBe(403);
    const create = await page.request.post(`${portal.url}/api/user`, {
      headers: { authorization: `Bearer ${token}` },
      data: { Username: 'sneaky', Email: 'sneaky@example.test', Password: 'long enough password', RoleID: 2 },
    });
    expect(create.status()).toBe(403);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    // Logging out ended the session on the server, not only in the browser.
    const me = await page.request.get(`${portal.url}/api/user/1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status()).toBe(401);
    expect(page.errors.filter((e) => !/status of (4\d\d)/.test(e))).toEqual([]);
  });
});
