import { describe, expect, it } from 'vitest';
import { setUpPortal } from './support/portal-session.ts';
import { buildClient, createUser, publishRoll } from './support/seed.ts';

/*
 * `npm test`'s browser smoke: one walk per audience through the built app (the resident's search and
 * record, a town admin's sign-in and rename, the provider's sign-in and console), so that a change that
 * breaks any audience's bundle or its first screen fails the quick gate. The full walks are the other
 * e2e files, which `npm run test:all` runs.
 */

const TOWN = 'Smoketon';
const RENAMED = 'Smoketon Mills';
const SUPER = { username: 'tess.town', password: 'town admin password' };
const PROVIDER = { username: 'paul.provider', password: 'provider password 123' };

describe('smoke: every audience reaches its first task', () => {
  const portal = setUpPortal({
    seed: async (db) => {
      const town = await buildClient(db, { city: TOWN, stateProvince: 'Maine' });
      await publishRoll(db, town.id, [
        {
          Account: '101',
          StreetNumber: '7',
          StreetName: 'Birch Ln',
          MapLot: 'R01-007',
          Owners: [{ OwnerName: 'EXAMPLE OWNER' }],
        },
        { Account: '102', StreetNumber: '9', StreetName: 'Birch Ln', MapLot: 'R01-009' },
      ]);
      await createUser(db, { ...SUPER, roleId: 2, manages: town.id });
      await createUser(db, { ...PROVIDER, roleId: 1 });
    },
  });

  it('a resident searches a town and opens a record', async () => {
    const page = await portal.open();
    await page.goto(`/Maine/${TOWN}/search`);
    // The whole roll is listed once the app has taken over the painted page.
    await page.getByText('Showing 1 to 2 of 2 results').waitFor();
    const box = page.getByRole('combobox', { name: /Search by owner/ });
    await box.fill('7 Birch');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Showing 1 to 1 of 1 result', { exact: true }).waitFor();
    await page
      .getByRole('link', { name: /7 BIRCH LN/i })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: /7 BIRCH LN/i }).waitFor();
    expect(await page.getByText('R01-007').first().isVisible()).toBe(true);
  });

  it('a town admin signs in, renames the town, and the public page shows the new name', async () => {
    const page = await portal.open();
    await page.goto(`/Maine/${TOWN}/admin`);
    await page.getByLabel('Username').fill(SUPER.username);
    await page.getByLabel('Password').fill(SUPER.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByLabel('City/Town').fill(RENAMED);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: `${RENAMED}, Maine` }).waitFor();
    const visitor = await portal.open();
    await visitor.goto(`/Maine/${TOWN}/search`);
    await visitor.getByRole('heading', { level: 1, name: `${RENAMED}, Maine` }).waitFor();
  });

  it('the provider signs in and sees the towns in the console', async () => {
    const page = await portal.open();
    await page.goto('/admin');
    await page.getByLabel('Username').fill(PROVIDER.username);
    await page.getByLabel('Password').fill(PROVIDER.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { name: 'Provider console' }).waitFor();
    await page.getByRole('rowheader', { name: new RegExp(`^${TOWN}`) }).waitFor();
  });
});
