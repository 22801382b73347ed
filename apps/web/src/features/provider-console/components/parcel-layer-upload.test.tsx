import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { ParcelLayerReport } from '@opp/contracts';
import { fakeApi, makeClient, provider, renderConsole, signInAs } from '../testing/console-test-kit';

const client = makeClient({ ClientID: 3, City: 'Augusta', ParcelCount: 2 });

const report = (over: Partial<ParcelLayerReport> = {}): ParcelLayerReport => ({
  FileName: 'augusta.geojson',
  Key: 'MapLot',
  Property: 'ML',
  FeaturesRead: 3,
  Shapes: 3,
  RecordsMatched: 2,
  RecordsWithoutShape: { Count: 0, First: [] },
  ShapesWithoutRecord: { Count: 1, First: ['ML Z-9'] },
  Warnings: { Count: 1, First: ['feature 2 (ML A-2): outer ring was not closed: closed'] },
  Problems: { Count: 0, First: [] },
  DryRun: true,
  Replaced: false,
  ...over,
});

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
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Edit Augusta, Maine' }));
  const dialog = await screen.findByRole('dialog', { name: 'Settings for: Augusta' });
  return within(within(dialog).getByRole('heading', { name: 'Parcel layer' }).closest('section')!);
}

describe('Parcel layer', () => {
  it('checks the file, shows its join report, and replaces the map only once confirmed', async () => {
    const uploads = serverWith((q) =>
      report({ DryRun: q.get('dryRun') === '1', Replaced: q.get('dryRun') !== '1' }),
    );
    renderConsole();
    const panel = await openSettings();
    const user = userEvent.setup();

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
});
