import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { ParcelLayerReport } from '@opp/contracts';
import {
  fakeApi,
  makeClient,
  openClientPage,
  provider,
  renderConsole,
  signInAs,
} from '../testing/console-test-kit';

const client = makeClient({ ClientID: 3, City: 'Augusta', ParcelCount: 2 });

const report = (over: Partial<ParcelLayerReport> = {}): ParcelLayerReport => ({
  FileName: 'augusta.geojson',
  Key: 'MapLot',
  Property: 'ML',
  PropertyChosen: false,
  RunnerUp: null,
  Suggestion: null,
  FileProperties: ['ML', 'LOC_ID'],
  FeaturesRead: 3,
  Shapes: 3,
  RecordsMatched: 2,
  RecordsOnMasterParcel: { Count: 0, First: [] },
  RecordsWithoutShape: { Count: 0, First: [] },
  ShapesWithoutRecord: { Count: 1, First: ['ML Z-9'] },
  Warnings: { Count: 1, First: ['feature 2 (ML A-2): outer ring was not closed: closed'] },
  Problems: { Count: 0, First: [] },
  Loss: null,
  NeedsConfirmation: false,
  DryRun: true,
  Replaced: false,
  ...over,
});

const live = {
  FileName: 'augusta-2024.geojson',
  Key: 'MapLot' as const,
  Shapes: 2,
  ImportedAt: '2026-03-02T15:04:00.000Z',
  ImportedBy: 'jdoe',
};
const layers = { Live: live, History: [live, { ...live, FileName: 'augusta-2020.geojson', Shapes: 1 }] };

/** The console's server, with parcel layer uploads answered by `answer` and recorded with their query. */
function serverWith(answer: (query: URLSearchParams) => ParcelLayerReport) {
  const uploads: URLSearchParams[] = [];
  fakeApi({
    'GET /api/config': () => ({ status: 200, body: { providerName: 'Acme Records' } }),
    'GET /api/user/1': () => ({ status: 200, body: provider }),
    'GET /api/clients': () => ({ status: 200, body: [client] }),
    'GET /api/users/role/1': () => ({ status: 200, body: [provider] }),
    'GET /api/contacts/3': () => ({ status: 200, body: [] }),
    'GET /api/rolls/3': () => ({ status: 200, body: [] }),
    'POST /api/parcels/3': () => ({ status: 200, body: answer(uploads.at(-1)!) }),
    'GET /api/parcel-layers/3': () => ({ status: 200, body: layers }),
  });
  // The kit records paths; the query (dry run or not) is what this form is about.
  const fakeFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/parcels/3') uploads.push(url.searchParams);
    return fakeFetch(input, init);
  });
  return uploads;
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

async function openSettings() {
  const page = await openClientPage('Augusta', 'Maine', 'Parcel layer');
  return within((await within(page).findByRole('heading', { name: 'Parcel layer' })).closest('section')!);
}

describe('Parcel layer', () => {
  it('checks the file, shows its join report, and replaces the map only once confirmed', async () => {
    const uploads = serverWith((q) =>
      report({ DryRun: q.get('dryRun') === '1', Replaced: q.get('dryRun') !== '1' }),
    );
    renderConsole();
    const panel = await openSettings();
    const user = userEvent.setup();
    expect((await panel.findByTestId('live-parcel-layer')).textContent).toMatch(
      /^Live: augusta-2024\.geojson, 2 parcel shapes, loaded .+ by jdoe\.$/,
    );
    expect(panel.getByText('Parcel layers loaded (2)')).toBeTruthy();
    expect(panel.getByRole('cell', { name: 'augusta-2020.geojson' })).toBeTruthy();

    await user.click(panel.getByRole('button', { name: 'Check file' }));
    expect(panel.getByText('Choose a parcel map file.')).toBeTruthy();
    expect(uploads).toHaveLength(0);

    const file = new File(['{"type":"FeatureCollection","features":[]}'], 'augusta.geojson');
    await user.upload(panel.getByLabelText('Parcel map file'), file);
    await user.type(panel.getByLabelText('Feature property holding it (optional)'), 'ML');
    await user.click(panel.getByRole('button', { name: 'Check file' }));

    expect(await panel.findByText('Join report for augusta.geojson')).toBeTruthy();
    expect(panel.getByText('Records matched: 2')).toBeTruthy();
    expect(panel.getByText('Shapes without a record: 1')).toBeTruthy();
    expect(panel.getByText('ML Z-9')).toBeTruthy();
    expect(uploads.map((q) => Object.fromEntries(q))).toEqual([
      { key: 'MapLot', property: 'ML', dryRun: '1' },
    ]);
    expect(
      panel.getByText('Replace Augusta’s parcel map with the 3 parcel shapes of augusta.geojson?'),
    ).toBeTruthy();

    await user.click(panel.getByRole('button', { name: 'Replace parcel map' }));
    expect(
      await panel.findByText('Augusta’s parcel map now has the 3 parcel shapes of augusta.geojson.'),
    ).toBeTruthy();
    expect(uploads).toHaveLength(2);
    expect(uploads[1]!.get('dryRun')).toBeNull();
  });

  it('lists the problems of a file that cannot be used, and offers no replacement', async () => {
    const uploads = serverWith(() =>
      report({ Problems: { Count: 1, First: ['feature 3 (ML A-9) is a Point, not a polygon'] } }),
    );
    renderConsole();
    const panel = await openSettings();
    const user = userEvent.setup();
    await user.upload(panel.getByLabelText('Parcel map file'), new File(['{}'], 'augusta.geojson'));
    await user.selectOptions(panel.getByLabelText('Shapes are matched to records by'), 'Account');
    await user.click(panel.getByRole('button', { name: 'Check file' }));

    expect(await panel.findByText('augusta.geojson cannot be used')).toBeTruthy();
    expect(panel.getByText('feature 3 (ML A-9) is a Point, not a polygon')).toBeTruthy();
    expect(panel.queryByRole('button', { name: 'Replace parcel map' })).toBeNull();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.get('key')).toBe('Account');
  });

  it('offers no replacement for a file that matches no record; suggests the property that does and lists the file’s', async () => {
    const uploads = serverWith((q) =>
      q.get('property') === 'ML'
        ? report({ Property: 'ML', RecordsMatched: 2 })
        : report({
            Property: 'MapLot',
            PropertyChosen: false,
            RecordsMatched: 0,
            FileProperties: ['MAP', 'LOC_ID', 'ML'],
            Suggestion: { Property: 'ML', RecordsJoined: 2 },
            Problems: { Count: 1, First: ['No record’s Map/Lot matches the file'] },
          }),
    );
    renderConsole();
    const panel = await openSettings();
    const user = userEvent.setup();
    await user.upload(panel.getByLabelText('Parcel map file'), new File(['{}'], 'augusta.geojson'));
    await user.type(panel.getByLabelText('Feature property holding it (optional)'), 'MapLot');
    await user.click(panel.getByRole('button', { name: 'Check file' }));

    expect(await panel.findByText('augusta.geojson cannot be used')).toBeTruthy();
    expect(
      panel.getByText(
        /No record’s Map\/Lot matches the file’s “MapLot” property\. The file’s features have MAP, LOC_ID, ML\./,
      ),
    ).toBeTruthy();
    expect(panel.queryByRole('button', { name: /Replace/ })).toBeNull();

    await user.click(panel.getByRole('button', { name: 'Check again with ML (matches 2 records)' }));
    expect(
      await panel.findByText('Replace Augusta’s parcel map with the 3 parcel shapes of augusta.geojson?'),
    ).toBeTruthy();
    expect(uploads.map((q) => q.get('property'))).toEqual(['MapLot', 'ML']);
    expect((panel.getByLabelText('Feature property holding it (optional)') as HTMLInputElement).value).toBe(
      'ML',
    );
  });

  it('states the loss of a file that leaves records off the map, and replaces only once that is confirmed', async () => {
    const loss = {
      FileName: 'old.geojson',
      RecordsOnMapNow: 100,
      RecordsOnMapAfter: 60,
      RecordsLosingShape: { Count: 40, First: ['Account 7 (Map/Lot A-7)'] },
    };
    const uploads = serverWith((q) =>
      report({
        Loss: loss,
        NeedsConfirmation: q.get('confirmLoss') !== '1',
        DryRun: q.get('dryRun') === '1',
        Replaced: q.get('dryRun') !== '1',
      }),
    );
    renderConsole();
    const panel = await openSettings();
    const user = userEvent.setup();
    await user.upload(panel.getByLabelText('Parcel map file'), new File(['{}'], 'augusta.geojson'));
    await user.click(panel.getByRole('button', { name: 'Check file' }));

    expect(await panel.findByRole('heading', { name: '40 records would leave the map' })).toBeTruthy();
    expect(
      panel.getAllByText(
        /Records on the map: 100 today \(old\.geojson\), 60 with this file: 40 fewer \(40%\)\./,
      ),
    ).toHaveLength(2);
    expect(panel.getByText('Account 7 (Map/Lot A-7)')).toBeTruthy();
    expect(panel.queryByRole('button', { name: 'Replace parcel map' })).toBeNull();

    await user.click(panel.getByRole('button', { name: 'Replace, removing 40 records from the map' }));
    expect(
      await panel.findByText('Augusta’s parcel map now has the 3 parcel shapes of augusta.geojson.'),
    ).toBeTruthy();
    expect(uploads.map((q) => Object.fromEntries(q))).toEqual([
      { key: 'MapLot', dryRun: '1' },
      { key: 'MapLot', confirmLoss: '1' },
    ]);
  });
});
