import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrackedPage } from './support/browser.ts';
import { setUpPortal } from './support/portal-session.ts';
import { buildClient, createUser, publishRoll } from './support/seed.ts';

/*
 * Owners are people (issue 39), in Chromium against the real server: a record whose owners are
 * suppressed says "Owner information withheld" and names nobody; a provider who withholds a town's owner
 * names in the console makes every record of the town say so.
 */

const ADMIN = { username: 'pat.provider', password: 'provider password 123' };
const TOWN = 'Quietbrook';

describe('owner privacy', () => {
  let page: TrackedPage;

  const portal = setUpPortal({
    seed: async (db) => {
      await createUser(db, { ...ADMIN, roleId: 1 });
      const town = await buildClient(db, { city: TOWN, stateProvince: 'Maine' });
      await publishRoll(db, town.id, [
        {
          Account: 'Q1',
          StreetNumber: '4',
          StreetName: 'MILL RD',
          Owners: [{ OwnerName: 'PUBLIC PERSON', Address1: '4 MILL RD' }],
        },
        {
          Account: 'Q2',
          StreetNumber: '6',
          StreetName: 'MILL RD',
          SuppressOwner: true,
          Owners: [{ OwnerName: 'PRIVATE PERSON', Address1: '1 SECRET WAY' }],
        },
      ]);
    },
  });
  beforeAll(async () => {
    page = await portal.open();
  });

  /** The record page once the app has drawn it (the server paints the heading before). */
  async function openRecord(account: string, address: string) {
    await page.goto(`/Maine/${TOWN}/${account}`);
    await page.getByRole('heading', { level: 1, name: address }).waitFor();
    await page.locator('.opp-record .opp-section').first().waitFor();
    return page.locator('.opp-record-head').innerText();
  }

  const choose = (within: Locator, group: string, option: string) =>
    within
      .getByRole('group', { name: group })
      .locator('label', { hasText: new RegExp(`^${option}$`) })
      .click();

  it('a suppressed record says "Owner information withheld" and names nobody', async () => {
    const head = await openRecord('Q2', '6 MILL RD');
    expect(head).toContain('Owner information withheld');
    expect(head).not.toMatch(/PRIVATE PERSON|SECRET WAY/);
    expect(await openRecord('Q1', '4 MILL RD')).toContain('PUBLIC PERSON');
  });

  it('a provider withholds the town’s owner names in the console, and its records say so', async () => {
    await page.goto('/admin');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { name: 'Provider console' }).waitFor();
    await page.getByRole('link', { name: `Edit ${TOWN}, Maine` }).click();
    const settings = page.getByRole('main');
    await settings.getByRole('heading', { level: 1, name: `Settings for: ${TOWN}` }).waitFor();
    await choose(settings, 'Owner names', 'Withhold');
    await settings.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Client saved').waitFor();

    const head = await openRecord('Q1', '4 MILL RD');
    expect(head).toContain('Owner information withheld');
    expect(head).not.toContain('PUBLIC PERSON');
    expect(page.errors).toEqual([]);
  });
});
