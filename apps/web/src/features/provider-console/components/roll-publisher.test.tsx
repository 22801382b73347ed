import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { ImportRunDto, RollPreviewDto } from '@opp/contracts';
import {
  fakeApi,
  makeClient,
  makeRun,
  openClientPage,
  provider,
  renderConsole,
  signInAs,
} from '../testing/console-test-kit';

/** What the server found in a good file: nothing wrong, two records. */
function cleanPreview(over: Partial<RollPreviewDto> = {}): RollPreviewDto {
  return {
    SourceFiles: ['augusta.jsonl'],
    Format: null,
    Mapping: null,
    Records: 2,
    FiscalYear: null,
    ValuationDate: null,
    HeaderLines: [],
    AbsentColumns: [],
    Fill: [{ Field: 'Account', Filled: 2, Of: 2 }],
    UnusedColumns: [],
    Sample: [
      { Line: 1, Record: { Account: '1' } },
      { Line: 2, Record: { Account: '2' } },
    ],
    ProblemCount: 0,
    Problems: [],
    WarningCount: 0,
    Warnings: [],
    WarningFields: [],
    Adjusted: [],
    Changes: null,
    ...over,
  };
}

/**
 * Stands in for the browser's XMLHttpRequest: reports upload progress, then answers `reply` (a preview
 * is answered `preview`).
 */
function fakeUpload(
  reply: { status: number; body: unknown },
  preview: { status: number; body: unknown } = { status: 200, body: cleanPreview() },
) {
  const sent: Array<{ url: string; auth: string | null; file: File | null; form: FormData }> = [];
  class FakeXhr {
    upload: {
      onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
    } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    responseText = '';
    private url = '';
    private headers: Record<string, string> = {};
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(k: string, v: string) {
      this.headers[k.toLowerCase()] = v;
    }
    abort() {
      this.onabort?.();
    }
    send(form: FormData) {
      sent.push({
        url: this.url,
        auth: this.headers.authorization ?? null,
        file: form.get('file') as File,
        form,
      });
      const answer = this.url.endsWith('/preview') ? preview : reply;
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
        this.status = answer.status;
        this.responseText = JSON.stringify(answer.body);
        this.onload?.();
      }, 10);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const client = makeClient({ ClientID: 3, City: 'Augusta', ParcelCount: 2 });

/** A server whose run advances one step each time it is polled. */
function serverWith(runSteps: ImportRunDto[], history: ImportRunDto[] = []) {
  let poll = 0;
  let clients = [client];
  const api = fakeApi({
    'GET /api/config': () => ({ status: 200, body: { providerName: 'Acme Records' } }),
    'GET /api/user/1': () => ({ status: 200, body: provider }),
    'GET /api/clients': () => ({ status: 200, body: clients }),
    'GET /api/users/role/1': () => ({ status: 200, body: [provider] }),
    'GET /api/contacts/3': () => ({ status: 200, body: [] }),
    'GET /api/roll-formats': () => ({
      status: 200,
      body: [{ Name: 'massgis-l3', Description: 'Massachusetts Level 3 assessor table' }],
    }),
    'GET /api/rolls/3': () => ({ status: 200, body: poll >= runSteps.length ? [runSteps.at(-1)] : history }),
    [`GET /api/rolls/3/runs/${runSteps[0]?.RunID ?? 0}`]: () => {
      const step = runSteps[Math.min(poll++, runSteps.length - 1)]!;
      if (step.Status === 'succeeded')
        clients = [{ ...client, ParcelCount: step.TotalRecords, LastUpdated: step.FinishedAt }];
      return { status: 200, body: step };
    },
  });
  return api;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  signInAs(provider);
});
afterEach(() => {
  cleanup();
  toast.remove();
  vi.unstubAllGlobals();
});

/** The client's page, on its roll publishing tab (the publisher and the history). */
const openSettings = () => openClientPage('Augusta', 'Maine', 'Roll publishing');

describe('Publish roll', () => {
  // The console polls once a second, so following three steps of an import takes a few seconds.
  it('uploads the file, follows the import to the end, and shows the new parcel count on the page', async () => {
    // The server keeps the count of the preview being confirmed with the run, from its start.
    const run = makeRun({ RunID: 21, ClientID: 3, FileName: 'augusta.jsonl', ExpectedRecords: 4 });
    const sent = fakeUpload({ status: 202, body: run }, { status: 200, body: cleanPreview({ Records: 4 }) });
    serverWith([
      { ...run, Status: 'validating', TotalRecords: 3 },
      { ...run, Status: 'importing', TotalRecords: 4, ImportedRecords: 2, FileBytes: 800, BytesRead: 600 },
      {
        ...run,
        Status: 'importing',
        TotalRecords: 4,
        ImportedRecords: 4,
        FileBytes: 800,
        BytesRead: 800,
        Indexing: true,
      },
      {
        ...run,
        Status: 'succeeded',
        TotalRecords: 4,
        ImportedRecords: 4,
        FinishedAt: '2025-06-01T12:00:00.000Z',
      },
    ]);
    renderConsole();
    const dialog = await openSettings();
    const user = userEvent.setup();

    await user.click(within(dialog).getByRole('button', { name: 'Preview roll' }));
    expect(within(dialog).getByText('Choose a roll file to publish.')).toBeTruthy();
    expect(sent).toHaveLength(0);

    const file = new File(['{"Account":"1"}\n'], 'augusta.jsonl', { type: 'application/x-ndjson' });
    await user.upload(within(dialog).getByLabelText('Roll file'), file);
    await user.click(within(dialog).getByRole('button', { name: 'Preview roll' }));
    // Nothing is published until the provider has seen what the server found, and confirms.
    const heading = await within(dialog).findByRole('heading', { name: 'Preview: nothing is published yet' });
    // Focus moves to the preview once it is drawn (an effect after the render that shows it).
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(
      within(dialog).getByText(
        /4 records in augusta\.jsonl, in the portal’s own format\. No problems found\./,
      ),
    ).toBeTruthy();
    expect(sent).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm publish' }));

    // From the moment the run starts: a count of the preview's total, not a bar that waits for the end.
    expect(await within(dialog).findByText('0 of 4 records checked')).toBeTruthy();
    const first = within(dialog).getByRole('progressbar') as HTMLProgressElement;
    expect([first.value, first.max]).toEqual([0, 4]);
    expect(await within(dialog).findByText('3 of 4 records checked', {}, { timeout: 4000 })).toBeTruthy();
    expect(await within(dialog).findByText(/Importing…/, {}, { timeout: 4000 })).toBeTruthy();
    const bar = within(dialog).getByRole('progressbar') as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([2, 4]);
    expect(within(dialog).getByText('2 of 4 records imported')).toBeTruthy();
    // Then the index builds, which move no count: an indeterminate bar and what is happening.
    expect(
      await within(dialog).findByText('Building the search indexes…', {}, { timeout: 4000 }),
    ).toBeTruthy();
    expect(within(dialog).getByRole('progressbar').hasAttribute('value')).toBe(false);
    expect(
      within(dialog).getByText(
        'All 4 records are in. The roll is published as soon as its search indexes are ready.',
      ),
    ).toBeTruthy();

    expect(
      await within(dialog).findByText(
        'Published 4 records from augusta.jsonl.',
        { selector: 'p:not([role])' },
        { timeout: 4000 },
      ),
    ).toBeTruthy();
    expect(sent.map((s) => s.url)).toEqual(['/api/rolls/3/preview', '/api/rolls/3']);
    expect(sent[1]!.auth).toMatch(/^Bearer /);
    expect(sent[1]!.file?.name).toBe('augusta.jsonl');
    // The preview only checks; the publish says how many records that check counted.
    expect(sent[0]!.form.get('records')).toBeNull();
    expect(sent[1]!.form.get('records')).toBe('4');

    // The page's summary (and the list behind it) now shows the new count and date.
    const date = new Date('2025-06-01T12:00:00.000Z').toLocaleDateString('en-US', {
      month: '2-digit',
      day: '2-digit',
      year: 'numeric',
    });
    await waitFor(() =>
      expect(within(dialog).getByText(`4 parcels, last updated ${date}`, { exact: false })).toBeTruthy(),
    );
  }, 40_000);

  it('lists the problems by line when the file is rejected', async () => {
    const run = makeRun({ RunID: 22, ClientID: 3, FileName: 'bad.csv' });
    fakeUpload({ status: 202, body: run });
    serverWith([
      { ...run, Status: 'validating', TotalRecords: 2, ErrorCount: 1, FileBytes: 400, BytesRead: 100 },
      {
        ...run,
        Status: 'failed',
        TotalRecords: 3,
        ErrorCount: 101,
        Errors: ['line 2: Sales[0].SalePrice: expected a number, got "N/A"', 'line 3: not valid JSON'],
        Message: '101 problems found; nothing was changed',
      },
    ]);
    renderConsole();
    const dialog = await openSettings();
    const user = userEvent.setup();
    await user.upload(
      within(dialog).getByLabelText('Roll file'),
      new File(['x'], 'bad.csv', { type: 'text/csv' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Preview roll' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Confirm publish' }));
    // Said from the first problem on, while the rest of the file is checked.
    expect(
      await within(dialog).findByText(
        'This file will not be published. Checking the rest of it for more problems…',
        {},
        { timeout: 4000 },
      ),
    ).toBeTruthy();
    expect(
      within(dialog).getByText('2 records checked, 1 problem found (25% of the file read)'),
    ).toBeTruthy();
    expect(
      await within(dialog).findByText('101 problems found; nothing was changed', {}, { timeout: 4000 }),
    ).toBeTruthy();
    expect(within(dialog).getByText('line 2: Sales[0].SalePrice: expected a number, got "N/A"')).toBeTruthy();
    expect(within(dialog).getByText('line 3: not valid JSON')).toBeTruthy();
    expect(within(dialog).getByText('…and 99 more.')).toBeTruthy();
  });

  it("shows the server's refusal (one import at a time) by the file input", async () => {
    fakeUpload({
      status: 409,
      body: {
        statusCode: 409,
        code: 'conflict',
        message: 'A roll is already being published for this client (big.jsonl); wait for it to finish.',
        error: 'x',
      },
    });
    serverWith([makeRun({ RunID: 23, ClientID: 3 })]);
    renderConsole();
    const dialog = await openSettings();
    const user = userEvent.setup();
    await user.upload(within(dialog).getByLabelText('Roll file'), new File(['x'], 'next.jsonl'));
    await user.click(within(dialog).getByRole('button', { name: 'Preview roll' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Confirm publish' }));
    expect(
      await within(dialog).findByText(
        'A roll is already being published for this client (big.jsonl); wait for it to finish.',
      ),
    ).toBeTruthy();
  });

  it('says so when a running import is building its indexes, in the progress and in the history', async () => {
    const indexing = makeRun({
      RunID: 25,
      ClientID: 3,
      Status: 'importing',
      TotalRecords: 1_000_000,
      ImportedRecords: 1_000_000,
      FileBytes: 3_100_000_000,
      BytesRead: 3_100_000_000,
      Indexing: true,
      FileName: 'county.jsonl',
    });
    serverWith([indexing], [indexing]);
    renderConsole();
    const dialog = await openSettings();
    expect(
      await within(dialog).findByText(
        'All 1,000,000 records are in. The roll is published as soon as its search indexes are ready.',
        {},
        { timeout: 4000 },
      ),
    ).toBeTruthy();
    expect(within(within(dialog).getByRole('table')).getByText('Building search indexes')).toBeTruthy();
  });

  it('the history says an import has finished as soon as the status line does, before it is read again', async () => {
    const running = makeRun({
      RunID: 26,
      ClientID: 3,
      Status: 'importing',
      TotalRecords: 10,
      ImportedRecords: 5,
      FileName: 'slow.csv',
    });
    const done = { ...running, Status: 'succeeded' as const, ImportedRecords: 10 };
    const api = serverWith([running, done], [running]);
    // The history's first answer comes at once; once the import has ended, its next one is held back.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let historyReads = 0;
    api.handlers['GET /api/rolls/3'] = async () => {
      if (historyReads++ > 0) await held;
      return { status: 200, body: [historyReads > 1 ? done : running] };
    };
    renderConsole();
    const dialog = await openSettings();
    const history = await within(dialog).findByRole('table');
    await within(history).findByText('Importing');
    await within(dialog).findAllByText('Published 10 records from slow.csv.', {}, { timeout: 4000 });
    await waitFor(() => expect(within(history).getByText('Published')).toBeTruthy());
    expect(historyReads).toBeGreaterThan(1);
    release();
  });

  it('picks up an import that is already running when the settings open, and lists the history', async () => {
    const running = makeRun({
      RunID: 24,
      ClientID: 3,
      Status: 'importing',
      TotalRecords: 10,
      ImportedRecords: 5,
      FileName: 'earlier.csv',
      Actor: 'zoe',
    });
    serverWith([running, { ...running, Status: 'importing', ImportedRecords: 7 }], [running]);
    renderConsole();
    const dialog = await openSettings();
    // A run that reports no file size (started from the command line): the count alone.
    expect(await within(dialog).findByText('5 records imported so far', {}, { timeout: 4000 })).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Preview roll' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    const history = within(dialog).getByRole('table');
    expect(within(history).getByText('earlier.csv')).toBeTruthy();
    expect(within(history).getByText('zoe')).toBeTruthy();
    expect(within(history).getByText('Importing')).toBeTruthy();
  });

  it('the history keeps a published run’s warnings, by field and by line, and the values its mapping changed', async () => {
    const published = makeRun({
      RunID: 27,
      ClientID: 3,
      Status: 'succeeded',
      TotalRecords: 2,
      ImportedRecords: 2,
      FileName: 'rem.csv, slh.csv (format vision)',
      SourceFiles: ['rem.csv', 'slh.csv'],
      Format: 'vision',
      FinishedAt: '2025-03-14T15:01:00.000Z',
      WarningCount: 3,
      Warnings: [
        'line 4: Sales[0].SaleDate (column SLH_SALE_DATE): the year 0987 is unlikely; published as given',
        'line 9: Sales[1].SalePrice (column SLH_PRICE): a sale price (5000) with no sale date; published as given',
      ],
      WarningFields: [
        { Field: 'Sales.SaleDate', Count: 2 },
        { Field: 'Sales.SalePrice', Count: 1 },
      ],
      Adjusted: [
        {
          Field: 'Buildings.BuildingStories',
          What: 'left empty (a code not in the code table)',
          Count: 1,
          Examples: ['line 7: "9XX" is not in the table'],
        },
      ],
    });
    const clean = makeRun({ RunID: 26, ClientID: 3, Status: 'succeeded', FileName: 'clean.jsonl' });
    serverWith([clean], [published, clean]);
    renderConsole();
    const dialog = await openSettings();
    const history = await within(dialog).findByRole('table');
    const rows = within(history).getAllByRole('row');
    // A clean run says nothing more than that it was published.
    expect(within(rows[2]!).queryByText(/warning/)).toBeNull();
    const notes = within(rows[1]!).getByText('3 warnings; 1 value changed by the mapping');
    await userEvent.setup().click(notes);
    expect(within(rows[1]!).getByText('3 warnings: read as given, and published so')).toBeTruthy();
    const byField = within(rows[1]!).getByRole('list', { name: 'Warnings by field' });
    expect(
      within(byField)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Sales.SaleDate: 2 warnings', 'Sales.SalePrice: 1 warning']);
    const first = within(rows[1]!).getByRole('list', { name: 'Warnings' });
    expect(within(first).getAllByRole('listitem')[0]!.textContent).toContain('line 4: Sales[0].SaleDate');
    expect(within(rows[1]!).getByText('…and 1 more.')).toBeTruthy();
    const changed = within(rows[1]!).getByRole('list', { name: 'Values the mapping changed' });
    expect(changed.textContent).toContain('Buildings.BuildingStories: 1 value left empty');
  });

  it('reads a town’s export as a built-in format, shows the preview’s tables, and offers no publish while a record has a problem', async () => {
    const sent = fakeUpload(
      { status: 202, body: makeRun({ RunID: 26, ClientID: 3 }) },
      {
        status: 200,
        body: cleanPreview({
          SourceFiles: ['l3.csv', 'more.csv'],
          Format: 'massgis-l3',
          Records: 3,
          Fill: [
            { Field: 'Account', Filled: 3, Of: 3 },
            { Field: 'TotalAcres', Filled: 2, Of: 3 },
          ],
          UnusedColumns: [{ File: 'l3.csv', Columns: ['COUNTY_EXTRA'], Count: 1 }],
          Sample: [
            {
              Line: 2,
              Record: {
                Account: '1-12',
                MapLot: '12-1',
                StreetNumber: '12',
                StreetName: 'MAIN ST',
                Owners: [{ OwnerName: 'PINE COVE HOLDINGS LLC' }],
                LandValue: 100000,
                TotalAcres: 0.5,
              },
            },
          ],
          ProblemCount: 1,
          Problems: ['line 4: TotalBuildingValue (column "BLDG_VAL"): expected a number, got "N/A"'],
        }),
      },
    );
    serverWith([makeRun({ RunID: 26, ClientID: 3 })]);
    renderConsole();
    const dialog = await openSettings();
    const user = userEvent.setup();
    const select = within(dialog).getByLabelText('File format');
    await within(select).findByRole('option', { name: /^massgis-l3: Massachusetts Level 3/ });
    await user.selectOptions(select, 'massgis-l3');
    await user.upload(within(dialog).getByLabelText(/^Roll files/), [
      new File(['PROP_ID\n1\n'], 'l3.csv', { type: 'text/csv' }),
      new File(['PROP_ID\n2\n'], 'more.csv', { type: 'text/csv' }),
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Preview roll' }));
    await within(dialog).findByRole('heading', { name: 'Preview: nothing is published yet' });
    expect(sent[0]!.form.get('format')).toBe('massgis-l3');
    expect(sent[0]!.form.getAll('file').map((f) => (f as File).name)).toEqual(['l3.csv', 'more.csv']);
    expect(
      within(dialog).getByText(
        /3 records in l3\.csv, more\.csv, read as the format massgis-l3\. 1 problem found/,
      ),
    ).toBeTruthy();

    const sample = within(dialog).getByRole('table', {
      name: 'The first 1 record as they will be published',
    });
    const cells = within(sample)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual([
      '2',
      '1-12',
      '12-1',
      '12 MAIN ST',
      'PINE COVE HOLDINGS LLC',
      '$100,000',
      '',
      '0.50',
    ]);
    const fill = within(dialog).getByRole('table', { name: 'How many records got a value, by portal field' });
    expect(within(fill).getByRole('row', { name: /TotalAcres 2 of 3 66\.6%/ })).toBeTruthy();
    expect(within(dialog).getByText('l3.csv: COUNTY_EXTRA')).toBeTruthy();
    expect(
      within(within(dialog).getByRole('list', { name: 'Problems' })).getByText(
        'line 4: TotalBuildingValue (column "BLDG_VAL"): expected a number, got "N/A"',
      ),
    ).toBeTruthy();
    // A file with a problem cannot be published: no Confirm, and Cancel goes back to the form.
    expect(within(dialog).queryByRole('button', { name: 'Confirm publish' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).queryByRole('heading', { name: 'Preview: nothing is published yet' })).toBeNull();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Preview roll' }));
    expect(sent).toHaveLength(1);
  });

  it('shows warnings, changed values and what publishing would change before the provider confirms', async () => {
    fakeUpload(
      { status: 202, body: makeRun({ RunID: 27, ClientID: 3 }) },
      {
        status: 200,
        body: cleanPreview({
          SourceFiles: ['nhdra.csv'],
          Mapping: 'lebanon-nhdra.json',
          Records: 3,
          HeaderLines: [{ File: 'nhdra.csv', Line: 2 }],
          Fill: [{ Field: 'Account', Filled: 3, Of: 3, PublishedFilled: 2, PublishedOf: 2 }],
          WarningCount: 2,
          Warnings: [
            'line 3: Sales[0].SaleDate (column "saledate"): the year 0987 is unlikely; published as given',
            'line 4: Sales[1].SalePrice (column "ID1 Prior Sale Price"): a sale price (5000) with no sale date; published as given',
          ],
          Adjusted: [
            {
              Field: 'LandCode',
              What: 'left empty (a code not in the code table)',
              Count: 1,
              Examples: ['line 3: "999" is not in the code table "use"'],
            },
          ],
          AbsentColumns: ['ZONE (Zone)'],
          Changes: {
            Published: 2,
            Added: 1,
            Removed: 0,
            Changed: 1,
            Unchanged: 1,
            FirstAdded: [{ Account: '1-3-100', MapLot: '1-3-100' }],
            FirstRemoved: [],
            FirstChanged: [{ Account: '1-1', MapLot: '1-1' }],
          },
        }),
      },
    );
    serverWith([makeRun({ RunID: 27, ClientID: 3 })]);
    renderConsole();
    const dialog = await openSettings();
    const user = userEvent.setup();
    await user.upload(
      within(dialog).getByLabelText('Roll file'),
      new File(['{}\n'], 'nhdra.jsonl', { type: 'application/x-ndjson' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Preview roll' }));
    await within(dialog).findByRole('heading', { name: 'Preview: nothing is published yet' });
    expect(within(dialog).getByText(/No problems found; 2 warnings \(published as given\)/)).toBeTruthy();
    expect(within(dialog).getByText(/nhdra\.csv: the header row is line 2/)).toBeTruthy();
    const warnings = within(dialog).getByRole('list', { name: 'Warnings' });
    expect(
      within(warnings)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'line 3: Sales[0].SaleDate (column "saledate"): the year 0987 is unlikely; published as given',
      'line 4: Sales[1].SalePrice (column "ID1 Prior Sale Price"): a sale price (5000) with no sale date; published as given',
    ]);
    const changes = within(dialog).getByRole('list', { name: 'Changes to the published roll' });
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'add 1 record: 1-3-100 (map/lot 1-3-100)',
      'remove 0 records',
      'change 1 record: 1-1 (map/lot 1-1)',
      'leave 1 record unchanged',
    ]);
    expect(
      within(within(dialog).getByRole('list', { name: 'Values the mapping changed' })).getByText(
        /LandCode: 1 value left empty \(a code not in the code table\)/,
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('Optional columns the files do not have: ZONE (Zone)')).toBeTruthy();
    const fill = within(dialog).getByRole('table', {
      name: 'How many records got a value, by portal field, beside the published roll',
    });
    expect(within(fill).getByRole('row', { name: /Account 3 of 3 100% 100% \(2 of 2\)/ })).toBeTruthy();
    // Warnings do not block: the provider may confirm.
    expect(within(dialog).getByRole('button', { name: 'Confirm publish' })).toBeTruthy();
  });

  it('sends a mapping file beside the data, and shows a refusal of the mapping by its field', async () => {
    const sent = fakeUpload(
      { status: 202, body: makeRun({ RunID: 27, ClientID: 3 }) },
      {
        status: 400,
        body: {
          statusCode: 400,
          code: 'validation_failed',
          message:
            'mapping: The mapping file town.json cannot be used: fields.TotalAcres.transform: unknown transform "acre"',
          error: 'Bad Request',
          fields: [
            {
              field: 'mapping',
              message:
                'The mapping file town.json cannot be used: fields.TotalAcres.transform: unknown transform "acre"',
            },
          ],
        },
      },
    );
    serverWith([makeRun({ RunID: 27, ClientID: 3 })]);
    renderConsole();
    const dialog = await openSettings();
    const user = userEvent.setup();
    await user.selectOptions(
      within(dialog).getByLabelText('File format'),
      'Another layout, read through a mapping file',
    );
    // Real towns' mappings are offered to start from, each a file to download.
    const examples = within(within(dialog).getByRole('list', { name: 'Start from an example mapping' }));
    const links = examples.getAllByRole('link');
    expect(links.map((a) => a.getAttribute('download'))).toEqual([
      'cambridge-fy2014.json',
      'cambridge-fy2025.json',
      'lebanon-nhdra.json',
      'lyme-nh.json',
    ]);
    expect(links.every((a) => a.getAttribute('href'))).toBe(true);
    expect(
      examples.getByText(/Vision's extract for the NH Department of Revenue Administration/),
    ).toBeTruthy();
    await user.upload(within(dialog).getByLabelText(/^Roll files/), new File(['A\n1\n'], 'parcels.csv'));
    await user.click(within(dialog).getByRole('button', { name: 'Preview roll' }));
    expect(within(dialog).getByText('Choose the mapping file.')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Mapping file (.json)'));
    expect(sent).toHaveLength(0);
    await user.upload(within(dialog).getByLabelText('Mapping file (.json)'), new File(['{}'], 'town.json'));
    await user.click(within(dialog).getByRole('button', { name: 'Preview roll' }));
    expect(
      await within(dialog).findByText(
        'The mapping file town.json cannot be used: fields.TotalAcres.transform: unknown transform "acre"',
      ),
    ).toBeTruthy();
    expect((sent[0]!.form.get('mapping') as File).name).toBe('town.json');
    expect(sent[0]!.form.get('format')).toBeNull();
    expect(within(dialog).getByLabelText('Mapping file (.json)').getAttribute('aria-invalid')).toBe('true');
  });
  it('sends the fiscal year and valuation date the provider gives, checks them first, and the preview says them', async () => {
    const sent = fakeUpload(
      { status: 202, body: makeRun({ RunID: 28, ClientID: 3 }) },
      { status: 200, body: cleanPreview({ FiscalYear: 2014, ValuationDate: '2013-01-01' }) },
    );
    serverWith([makeRun({ RunID: 28, ClientID: 3 })]);
    renderConsole();
    const dialog = await openSettings();
    const user = userEvent.setup();
    await user.upload(within(dialog).getByLabelText('Roll file'), new File(['{}\n'], 'augusta.jsonl'));
    // A fiscal year that is not one is refused by its field before anything is sent.
    await user.type(within(dialog).getByLabelText('Fiscal year'), 'FY14');
    await user.click(within(dialog).getByRole('button', { name: 'Preview roll' }));
    expect(within(dialog).getByText('Fiscal year must be a year such as 2014')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Fiscal year'));
    expect(sent).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Fiscal year'));
    await user.type(within(dialog).getByLabelText('Fiscal year'), '2014');
    await user.type(within(dialog).getByLabelText('Values as of'), '2013-01-01');
    await user.click(within(dialog).getByRole('button', { name: 'Preview roll' }));
    expect(
      await within(dialog).findByText('Values as of 01/01/2013, fiscal year 2014, as you gave them.'),
    ).toBeTruthy();
    expect(sent[0]!.form.get('fiscalYear')).toBe('2014');
    expect(sent[0]!.form.get('valuationDate')).toBe('2013-01-01');
    // Confirming sends them again with the same files.
    await user.click(within(dialog).getByRole('button', { name: /Confirm publish/ }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.form.get('fiscalYear')).toBe('2014');
    expect(sent[1]!.form.get('valuationDate')).toBe('2013-01-01');
  });
});
