import type { Locator } from 'playwright-core';
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
import { buildClient, createUser } from './support/seed.ts';

/*
 * The provider console walked as a provider admin would (issue 6): sign in, create a client (meeting
 * the required-field messages first), publish its roll, find the town on the home page and search its
 * records, change its settings, add and edit a provider admin, delete the client. axe-core checks the
 * console and each of its modals on the way.
 */

const ADMIN = { username: 'pat.provider', password: 'provider password 123' };
const TOWN = 'Pinecrest Harbor';

const roll = [
  {
    Account: '9001',
    StreetNumber: '12',
    StreetName: 'Quarry Rd',
    MapLot: 'R07-001',
    Owners: [{ OwnerName: 'WINTERBOTTOM ALICE' }],
  },
  {
    Account: '9002',
    StreetNumber: '14',
    StreetName: 'Quarry Rd',
    MapLot: 'R07-002',
    Owners: [{ OwnerName: 'FAIRWEATHER BO' }],
  },
  {
    Account: '9003',
    StreetNumber: '3',
    StreetName: 'Harbor Ln',
    MapLot: 'U01-010',
    Owners: [{ OwnerName: 'LINDQVIST CARA' }],
  },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

describe('provider console', () => {
  let page: TrackedPage;

  const portal = setUpPortal({
    seed: async (db) => {
      await createUser(db, { ...ADMIN, roleId: 1 });
      await buildClient(db, { city: 'Augusta', stateProvince: 'Maine' });
    },
  });
  beforeAll(async () => {
    page = await portal.open();
  });

  const dialog = (name: string | RegExp) => page.getByRole('dialog', { name });
  /** USWDS radios are drawn by their labels (the input itself sits off-screen), so people click those. */
  const choose = (within: Locator, group: string, option: string) =>
    within
      .getByRole('group', { name: group })
      .locator('label', { hasText: new RegExp(`^${option}$`) })
      .click();
  const clientRow = (city: string) =>
    page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${city}`) }) });

  it('signs a provider admin in on the provider-mode login page', async () => {
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: 'Open Property Portal Admin Login' }).waitFor();
    await expectNoA11yViolations(page, 'provider login');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { name: 'Provider console' }).waitFor();
    const header = page.getByRole('banner');
    expect(await header.getByText(ADMIN.username).isVisible()).toBe(true);
    expect(await header.getByRole('link', { name: 'Open Property Portal' }).getAttribute('href')).toBe('/');
    await clientRow('Augusta').waitFor();
    await expectNoA11yViolations(page, 'provider console');
  });

  it('creates a client, showing the required-field messages first', async () => {
    await page.getByRole('button', { name: 'Add a client' }).click();
    const create = dialog('Please enter the client Information');
    await create.waitFor();
    await expectNoA11yViolations(page, 'client creation modal');
    await create.getByLabel(/^Country/).fill('');
    await create.getByRole('button', { name: 'Add', exact: true }).click();
    for (const message of ['Client Name is required.', 'Country is required.', 'State/Province is required.'])
      expect(await create.getByText(message).isVisible()).toBe(true);
    await expectNoA11yViolations(page, 'client creation modal with errors');

    await create.getByLabel(/^Client Name/).fill(TOWN);
    await create.getByLabel(/^Country/).fill('United States');
    await create.getByLabel(/^State\/Province/).fill('Maine');
    await choose(create, 'Type', 'Production');
    await create.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Client Added').waitFor();
    await create.waitFor({ state: 'detached' });
    const row = clientRow(TOWN);
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('0');
  });

  it('publishes a roll for it on the client’s own page, then shows the new parcel count and date in the list', async () => {
    await page.getByRole('link', { name: `Edit ${TOWN}, Maine` }).click();
    await page.getByRole('heading', { level: 1, name: `Settings for: ${TOWN}` }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/admin\/clients\/\d+$/);
    await page.getByRole('link', { name: 'Roll publishing' }).click();
    const settings = page.getByRole('main');
    await settings.getByText('No roll has been published for this client yet.').waitFor();
    // The list's "Client Added" toast follows to this page; axe reads it mid-fade as low contrast.
    await page.getByText('Client Added').waitFor({ state: 'detached' });
    await expectNoA11yViolations(page, 'client page, roll publishing');
    await settings.getByLabel('Roll file').setInputFiles({
      name: 'pinecrest-2025.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(roll),
    });
    await settings.getByRole('button', { name: 'Preview roll' }).click();
    await settings.getByRole('heading', { name: 'Preview: nothing is published yet' }).waitFor();
    // The publish carries the preview's count: the run knows its total from the start.
    const started = page.waitForResponse(
      (r) => r.request().method() === 'POST' && /\/api\/rolls\/\d+$/.test(new URL(r.url()).pathname),
    );
    await settings.getByRole('button', { name: 'Confirm publish' }).click();
    expect(await (await started).json()).toMatchObject({ ExpectedRecords: 3 });
    await settings
      .getByText('Published 3 records from pinecrest-2025.jsonl.', { exact: true })
      .last()
      .waitFor();
    await settings.getByRole('cell', { name: 'pinecrest-2025.jsonl' }).waitFor();
    expect(await settings.getByRole('cell', { name: ADMIN.username }).count()).toBeGreaterThan(0);
    await expectNoA11yViolations(page, 'client page after publishing');
    await screenshot(page, 'provider-console-published');
    // Back returns through the tabs to the list, as any page would.
    await page.goBack();
    await page.getByRole('button', { name: 'Update' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Provider console' }).waitFor();

    const row = clientRow(TOWN);
    await row.getByRole('cell', { name: '3', exact: true }).waitFor();
    const today = await page.evaluate(() => new Date().toLocaleDateString('en-US'));
    expect(await row.getByRole('cell').nth(2).textContent()).toBe(today);
    await screenshot(page, 'provider-console');
    // On a phone the tables stack and nothing scrolls sideways.
    await page.setViewportSize(MOBILE);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await screenshot(page, 'provider-console-375');
    await page.setViewportSize(DESKTOP);
  });

  it('the town appears on the home page and its records are searchable', async () => {
    const visitor = await portal.open();
    try {
      await visitor.goto('/');
      const region = visitor.getByLabel('Region');
      await visitor.waitForFunction(() =>
        Array.from(document.querySelectorAll('select option')).some((o) => o.textContent === 'Maine'),
      );
      await region.selectOption('Maine');
      const community = visitor.getByLabel('Community');
      await visitor.waitForFunction(
        (town) => Array.from(document.querySelectorAll('select option')).some((o) => o.textContent === town),
        TOWN,
      );
      await community.selectOption(TOWN);
      await visitor.getByRole('button', { name: 'Search' }).click();
      await visitor.waitForURL(/\/Maine\/Pinecrest%20Harbor\/search/);
      const box = visitor.getByLabel('Search by owner, address, map/lot or account');
      await box.fill('winterbottom');
      await box.press('Enter');
      await visitor.getByText('Showing 1 to 1 of 1 result').waitFor();
      expect(await visitor.getByText('WINTERBOTTOM ALICE').first().isVisible()).toBe(true);
    } finally {
      await visitor.close();
    }
  });

  it('edits its settings: denying images disables and clears Picture Level', async () => {
    await page.getByRole('link', { name: `Edit ${TOWN}, Maine` }).click();
    const settings = page.getByRole('main');
    await settings.getByRole('heading', { level: 1, name: `Settings for: ${TOWN}` }).waitFor();
    const picture = settings.getByLabel('Picture Level');
    expect(await picture.inputValue()).toBe('Per Property');
    await choose(settings, 'Allows Image', 'Deny');
    expect(await picture.isDisabled()).toBe(true);
    expect(await picture.inputValue()).toBe('');
    await settings.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Client saved').waitFor();

    // The page's address opens it again as saved, as a bookmark or a shared link would.
    await page.reload();
    const again = page.getByRole('main');
    await again.getByRole('heading', { level: 1, name: `Settings for: ${TOWN}` }).waitFor();
    expect(
      await again
        .getByRole('group', { name: 'Allows Image' })
        .getByRole('radio', { name: 'Deny' })
        .isChecked(),
    ).toBe(true);
    expect(await again.getByLabel('Picture Level').inputValue()).toBe('');
    await page
      .getByRole('navigation', { name: 'Breadcrumbs' })
      .getByRole('link', { name: 'Provider console' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Provider console' }).waitFor();
  });

  it('adds and edits a provider admin', async () => {
    await page.getByRole('button', { name: 'Add a provider administrator' }).click();
    const modal = dialog('Open Property Portal Admin');
    await modal.waitFor();
    await expectNoA11yViolations(page, 'provider admin modal');
    await modal.getByLabel('Name').fill('casey.second');
    await modal.getByLabel('Email').fill('casey@provider.test');
    await modal.getByLabel('New Password').fill('another password 456');
    await modal.getByLabel('Confirm Password').fill('another password 456');
    await modal.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Admin saved').waitFor();
    await modal.waitFor({ state: 'detached' });
    const admins = page.getByRole('table', { name: /Provider administrators/ });
    await admins.getByRole('rowheader', { name: /^casey\.second/ }).waitFor();
    // Sorted by Username; each row shows the email under the name.
    expect(await admins.getByRole('rowheader').allTextContents()).toEqual([
      'casey.secondcasey@provider.test',
      `${ADMIN.username}${ADMIN.username}@example.test`,
    ]);

    await page.getByRole('button', { name: 'Edit casey.second' }).click();
    const edit = dialog('Open Property Portal Admin');
    await edit.waitFor();
    expect(await edit.getByLabel('Name').inputValue()).toBe('casey.second');
    await edit.getByLabel('Email').fill('not-an-email');
    await edit.getByRole('button', { name: 'Update' }).click();
    await edit.getByText('Email Address is not a valid email').waitFor();
    await expectNoA11yViolations(page, 'provider admin modal with a server error');
    await edit.getByLabel('Email').fill('casey.c@provider.test');
    await edit.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Admin saved').last().waitFor();
    await edit.waitFor({ state: 'detached' });
    await admins.getByText('casey.c@provider.test').waitFor();
  });

  it('deletes the test client after a confirmation naming it', async () => {
    await page.getByRole('link', { name: `Edit ${TOWN}, Maine` }).click();
    const settings = page.getByRole('main');
    await settings.getByRole('heading', { level: 1, name: `Settings for: ${TOWN}` }).waitFor();
    await settings.getByRole('button', { name: `Delete ${TOWN}` }).click();
    const confirm = dialog(`Delete ${TOWN}, Maine?`);
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('3 properties');
    await expectNoA11yViolations(page, 'delete confirmation');
    await confirm.getByRole('button', { name: `Delete ${TOWN}` }).click();
    await page.getByText('Client deleted').waitFor();
    await clientRow(TOWN).waitFor({ state: 'detached' });
    expect(await clientRow('Augusta').count()).toBe(1);
    const res = await page.request.get(`${portal.url}/api/client/Maine/${encodeURIComponent(TOWN)}`);
    expect(res.status()).toBe(404);
    // Refused saves above log "Failed to load resource"; a script error would be a bug.
    expect(page.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });
});
