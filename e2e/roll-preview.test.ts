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
 * Issue 39 in the browser: a provider publishes a town's own export (a made-up MassGIS Level 3 table)
 * by choosing its format, sees the preview (counts, fill rates, the first records, the columns not read),
 * confirms with the keyboard, and finds the roll published; the history names the file and the format.
 * Before that, a file with a problem is previewed and cannot be confirmed.
 */

const ADMIN = { username: 'quinn.provider', password: 'provider password 456' };
const TOWN = 'Elmfield';

const HEADER =
  'PROP_ID,LOC_ID,BLDG_VAL,LAND_VAL,OTHER_VAL,TOTAL_VAL,FY,LOT_SIZE,LOT_UNITS,LS_DATE,LS_PRICE,LS_BOOK,LS_PAGE,' +
  'USE_CODE,SITE_ADDR,LOCATION,CITY,ZIP,OWNER1,OWN_ADDR,OWN_CITY,OWN_STATE,OWN_ZIP,OWN_CO,ZONING,YEAR_BUILT,' +
  'BLD_AREA,UNITS,RES_AREA,STYLE,STORIES,NUM_ROOMS,MAP_PAR_ID,SURVEY_NOTE';
const ROWS = [
  '7-101,E1,"182,400",95000,0,277400,2025,0.75,A,20180614,265000,51020,77,101,101 ELM ST,,ELMFIELD,01990,' +
    'ORCHARD LANE TRUST,101 ELM ST,ELMFIELD,MA,01990,,R1,1962,1650,1,1400,Cape,1.5,6,7-101,n',
  '7-103,E2,0,41000,0,41000,2025,10890,S,0,0,,,130,103 ELM ST,,ELMFIELD,01990,' +
    'BLUE HERON LLC,PO BOX 12,ELMFIELD,MA,01990,,R1,0,0,0,0,,0,0,7-103,n',
  // A 1987 sale typed as 0987: read as written, with a warning that does not block the roll.
  '7-110,E3,210000,88000,3500,301500,2025,1.1,A,09870301,190000,40018,542,101,110 ELM ST,B,ELMFIELD,01990,' +
    'STONEWALL FARM INC,110 ELM ST,ELMFIELD,MA,01990,,R2,1999,2100,2,1900,Colonial,2,8,7-110,n',
];
const csv = (rows: string[]) => Buffer.from(`${HEADER}\n${rows.join('\n')}\n`);

describe('provider console: publishing a town’s export with a preview', () => {
  let page: TrackedPage;

  const portal = setUpPortal({
    seed: async (db) => {
      await createUser(db, { ...ADMIN, roleId: 1 });
      await buildClient(db, { city: TOWN, stateProvince: 'Massachusetts' });
    },
  });
  beforeAll(async () => {
    page = await portal.open();
    await page.goto('/admin');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { name: 'Provider console' }).waitFor();
  });

  const settings = () => page.getByRole('main');

  it('previews a file with a problem and offers no publish', async () => {
    await page.getByRole('link', { name: `Edit ${TOWN}, Massachusetts` }).click();
    await page.getByRole('link', { name: 'Roll publishing' }).click();
    const dialog = settings();
    await dialog.getByText('No roll has been published for this client yet.').waitFor();
    await dialog.getByLabel('File format').selectOption('massgis-l3');
    await dialog.getByLabel(/^Roll files/).setInputFiles({
      name: 'elmfield-l3.csv',
      mimeType: 'text/csv',
      buffer: csv([ROWS[0]!, ROWS[1]!.replace('41000,0,41000', 'forty-one,0,41000')]),
    });
    await dialog.getByRole('button', { name: 'Preview roll' }).click();
    await dialog.getByRole('heading', { name: 'Preview: nothing is published yet' }).waitFor();
    await dialog
      .getByText(/2 records in elmfield-l3\.csv, read as the format massgis-l3\. 1 problem found/)
      .waitFor();
    expect(
      await dialog
        .getByRole('list', { name: 'Problems' })
        .getByText('line 3: LandValue (column "LAND_VAL"): expected a number', { exact: false })
        .isVisible(),
    ).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Confirm publish' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Preview roll' }).waitFor();
  });

  it('previews a good export, is confirmed with the keyboard, and the roll is published', async () => {
    const dialog = settings();
    await dialog.getByLabel(/^Roll files/).setInputFiles({
      name: 'elmfield-l3.csv',
      mimeType: 'text/csv',
      buffer: csv(ROWS),
    });
    // Massachusetts values fiscal year 2014 as of January 1, 2013: the provider says so with the file.
    await dialog.getByLabel('Fiscal year').fill('2014');
    await dialog.getByLabel('Values as of').fill('2013-01-01');
    await dialog.getByRole('button', { name: 'Preview roll' }).press('Enter');
    const heading = dialog.getByRole('heading', { name: 'Preview: nothing is published yet' });
    await heading.waitFor();
    // Focus lands on the preview, so a keyboard user reads it from its start.
    expect(await heading.evaluate((h) => h === document.activeElement)).toBe(true);
    await dialog
      .getByText(
        /3 records in elmfield-l3\.csv, read as the format massgis-l3\. No problems found; 1 warning/,
      )
      .waitFor();
    await dialog.getByText('Values as of 01/01/2013, fiscal year 2014, as you gave them.').waitFor();
    // The warning is shown before the provider confirms, by line, field and column.
    expect(
      await dialog
        .getByRole('list', { name: 'Warnings', exact: true })
        .getByRole('listitem')
        .allTextContents(),
    ).toEqual([
      'line 4: Sales[0].SaleDate (column "LS_DATE"): the year 0987 is unlikely; published as given',
    ]);

    const sample = dialog.getByRole('table', { name: 'The first 3 records as they will be published' });
    const firstRow = sample.getByRole('row').nth(1);
    expect(await firstRow.getByRole('cell').allTextContents()).toEqual([
      '2',
      '7-101',
      '7-101',
      '101 ELM ST',
      'ORCHARD LANE TRUST',
      '$95,000',
      '$182,400',
      '0.75',
    ]);
    // 10,890 square feet is a quarter of an acre.
    expect(await sample.getByRole('row').nth(2).getByRole('cell').last().textContent()).toBe('0.25');
    const fill = dialog.getByRole('table', { name: 'How many records got a value, by portal field' });
    expect(await fill.getByRole('row', { name: /^Account 3 of 3 100%$/ }).count()).toBe(1);
    await dialog.getByText(/^elmfield-l3\.csv: .*SURVEY_NOTE/).waitFor();
    await expectNoA11yViolations(page, 'roll preview');

    // At a desktop's width the client's page gives the preview's tables room: none scrolls sideways.
    for (const table of await dialog.locator('.usa-table-container--scrollable').all())
      expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    // At a phone's width the preview's tables scroll inside their frames, never the page.
    await page.setViewportSize(MOBILE);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await screenshot(page, 'roll-preview-375');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'roll-preview');

    const confirm = dialog.getByRole('button', { name: 'Confirm publish' });
    await confirm.focus();
    await page.keyboard.press('Enter');
    await dialog
      .getByText('Published 3 records from elmfield-l3.csv (format massgis-l3).', { exact: true })
      .last()
      .waitFor();
    const history = dialog
      .getByRole('table')
      .filter({ has: page.getByRole('columnheader', { name: 'Files' }) });
    const latest = history.getByRole('row').nth(1);
    expect(await latest.getByRole('cell').nth(1).textContent()).toBe('elmfield-l3.csvFormat: massgis-l3');
    const outcome = latest.getByRole('cell').nth(3);
    await expect.poll(() => outcome.textContent()).toMatch(/^Published/);
    // The run keeps the warning its preview showed: folded under its count, by field and by line.
    await outcome.locator('summary').click();
    expect(
      await outcome.getByRole('list', { name: 'Warnings by field' }).getByRole('listitem').allTextContents(),
    ).toEqual(['Sales.SaleDate: 1 warning']);
    expect(
      await outcome
        .getByRole('list', { name: 'Warnings', exact: true })
        .getByRole('listitem')
        .allTextContents(),
    ).toEqual([
      'line 4: Sales[0].SaleDate (column "LS_DATE"): the year 0987 is unlikely; published as given',
    ]);
    await expectNoA11yViolations(page, 'import history with a run’s warnings');
    await page
      .getByRole('navigation', { name: 'Breadcrumbs' })
      .getByRole('link', { name: 'Provider console' })
      .click();

    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${TOWN}`) }) });
    await row.getByRole('cell', { name: '3', exact: true }).waitFor();
  });

  it('the published records are the export’s, on the public site', async () => {
    const visitor = await portal.open();
    try {
      const res = await visitor.request.get(`/api/fullproperty/7-110?state=Massachusetts&city=${TOWN}`);
      expect(res.status()).toBe(200);
      expect(await res.json()).toMatchObject({ StreetName: 'ELM ST', Apartment: 'B', TotalAcres: 1.1 });
      const { ClientID } = await (await visitor.request.get(`/api/client/Massachusetts/${TOWN}`)).json();
      const town = await (await visitor.request.get(`/api/client/${ClientID}`)).json();
      expect(town).toMatchObject({ TaxYear: 2014, ValuationDate: '2013-01-01' });
    } finally {
      await visitor.close();
    }
  });
});
