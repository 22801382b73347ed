import { describe, expect, it } from 'vitest';
import { featuresOfJson } from '../apps/server/src/features/parcels/parcel-files.ts';
import { importParcelLayer } from '../apps/server/src/features/parcels/parcel-import.ts';
import { lotRow } from '../apps/server/test/parcel-layers.ts';
import { expectNoA11yViolations } from './support/browser.ts';
import { setUpPortal } from './support/portal-session.ts';
import { buildClient, createUser, publishRoll } from './support/seed.ts';

/*
 * Issue 45/48: the provider console's parcel layer check, walked in Chromium. A file that matches no
 * record is not offered for replacement (the check suggests the property that does); a file that would
 * leave records off the map is replaced only through a button that states the loss.
 */

const ADMIN = { username: 'lee.layers', password: 'provider password 123' };
const TOWN = 'Millbrook';
const MAP_LOTS = ['M1-1', 'M1-2', 'M1-3', 'M1-4'];

describe('parcel layer in the provider console', () => {
  const portal = setUpPortal({
    seed: async (db) => {
      await createUser(db, { ...ADMIN, roleId: 1 });
      const client = await buildClient(db, { city: TOWN, stateProvince: 'Maine' });
      const { client: published } = await publishRoll(
        db,
        client.id,
        MAP_LOTS.map((MapLot, i) => ({
          Account: String(i + 1),
          MapLot,
          Owners: [{ OwnerName: `OWNER ${i}` }],
        })),
      );
      await importParcelLayer(db, featuresOfJson(lotRow(MAP_LOTS), 'seed'), {
        clientId: client.id,
        rollId: published.activeRollId,
        key: 'MapLot',
        fileName: 'millbrook-2024.geojson',
        dryRun: false,
      });
    },
  });

  it('refuses a file matching nothing, suggests its ML, and replaces only once the loss is confirmed', async () => {
    const page = await portal.open();
    try {
      await page.goto('/admin');
      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByLabel('Password').press('Enter');
      await page.getByRole('heading', { name: 'Provider console' }).waitFor();
      await page.getByRole('link', { name: `Edit ${TOWN}, Maine` }).click();
      await page.getByRole('link', { name: 'Parcel layer' }).click();
      const section = page
        .getByRole('main')
        .locator('section')
        .filter({ has: page.getByRole('heading', { name: 'Parcel layer' }) });
      await section.getByText(/^Live: millbrook-2024\.geojson, 4 parcel shapes, loaded /).waitFor();

      // Keyed by a GIS id that matches no map/lot; the map/lot is in ML, on only one lot.
      const layer = lotRow(['G-1', 'G-2', 'G-3', 'G-4'], { property: 'GIS_ID' });
      layer.features.forEach((f, i) => (f.properties.ML = i === 0 ? 'M1-1' : ''));
      await section.getByLabel('Parcel map file').setInputFiles({
        name: 'gis.geojson',
        mimeType: 'application/geo+json',
        buffer: Buffer.from(JSON.stringify(layer)),
      });
      await section.getByLabel('Feature property holding it (optional)').fill('GIS_ID');
      await section.getByRole('button', { name: 'Check file' }).click();
      await section.getByRole('heading', { name: 'gis.geojson cannot be used' }).waitFor();
      await section.getByText(/The file’s features have GIS_ID, ML\./).waitFor();
      expect(await section.getByRole('button', { name: /^Replace/ }).count()).toBe(0);
      await expectNoA11yViolations(page, 'a parcel layer that matches no record');

      await section.getByRole('button', { name: 'Check again with ML (matches 1 record)' }).click();
      await section.getByRole('heading', { name: '3 records would leave the map' }).waitFor();
      await section
        .getByText('Records on the map: 4 today (millbrook-2024.geojson), 1 with this file: 3 fewer (75%).')
        .first()
        .waitFor();
      expect(await section.getByRole('button', { name: 'Replace parcel map' }).count()).toBe(0);
      await expectNoA11yViolations(page, 'a parcel layer that needs confirmation');

      await section.getByRole('button', { name: 'Replace, removing 3 records from the map' }).click();
      await section.getByText('Millbrook’s parcel map now has the 1 parcel shape of gis.geojson.').waitFor();
      await section.getByText(/^Live: gis\.geojson, 1 parcel shape, loaded .+ by lee\.layers\.$/).waitFor();
      expect(page.errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
