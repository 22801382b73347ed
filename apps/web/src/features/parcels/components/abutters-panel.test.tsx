import type { Abutter, AbuttersResponse } from '@opp/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AbuttersPanel } from './abutters-panel';

/*
 * The abutters panel against a fake API: the distance a visitor chooses or types (checked as typed),
 * the list it gets back, and what it says when the list is empty or cannot be had.
 */

const abutter = (i: number, feet: number): Abutter => ({
  Account: String(200 + i),
  MapLot: `U${i}-00${i}`,
  Location: `${10 + i} ELM ST`,
  DistanceFeet: feet,
  Owners: [
    {
      OwnerName: `NEIGHBOUR ${i}`,
      Address1: `PO BOX ${i}`,
      Address2: '',
      Address3: '',
      City: 'HARRISON',
      State: 'ME',
      ZipCode: '04040',
      Country: '',
    },
  ],
});

let requested: URL[] = [];
let answer: (feet: number) => Response;

function fakeFetch() {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    requested.push(url);
    if (url.pathname === '/api/abutters/7/1000') return answer(Number(url.searchParams.get('distance')));
    return new Response('{}', { status: 404 });
  });
}

const listOf = (feet: number, abutters: Abutter[]): Response => {
  const body: AbuttersResponse = {
    Subject: { Account: '1000', MapLot: 'U1-001', Location: '1 MAIN ST' },
    DistanceFeet: feet,
    MapDate: '2026-03-01',
    Town: { City: 'Harrison', State: 'ME' },
    Abutters: abutters,
  };
  return new Response(JSON.stringify(body), { status: 200 });
};

function renderPanel() {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <AbuttersPanel clientId={7} account="1000" hrefFor={(a) => `/Maine/Harrison/${a}`} />,
      },
    ],
    { initialEntries: ['/'] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const distances = () => requested.map((u) => u.searchParams.get('distance'));
const distanceBox = () => screen.getByRole('textbox', { name: /other distance/i });

describe('abutters panel', () => {
  beforeEach(() => {
    requested = [];
    answer = (feet) =>
      listOf(feet, feet >= 200 ? [abutter(1, 0), abutter(2, 45), abutter(3, 180)] : [abutter(1, 0)]);
    vi.stubGlobal('fetch', fakeFetch());
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists the abutters within 300 ft at first: account links, map/lot, location, mailing address, distance', async () => {
    renderPanel();
    expect(await screen.findByText('3 records within 300 ft of this parcel')).toBeTruthy();
    expect(distances()).toEqual(['300']);
    const table = screen.getByRole('table', { name: 'Abutters within 300 ft, nearest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    const second = within(rows[1]!);
    expect(second.getByRole('link', { name: '202' }).getAttribute('href')).toBe('/Maine/Harrison/202');
    expect(second.getByText('U2-002')).toBeTruthy();
    expect(second.getByText('12 ELM ST')).toBeTruthy();
    expect(second.getByText('NEIGHBOUR 2')).toBeTruthy();
    expect(second.getByText('HARRISON, ME 04040')).toBeTruthy();
    expect(second.getByText('45')).toBeTruthy();
    // The downloads are the server's files for the same distance.
    expect(screen.getByRole('link', { name: /download csv/i }).getAttribute('href')).toBe(
      '/api/abutters/7/1000/abutters.csv?distance=300',
    );
    expect(screen.getByRole('link', { name: /mailing labels/i }).getAttribute('href')).toBe(
      '/api/abutters/7/1000/abutters.pdf?distance=300',
    );
    expect(screen.getByRole('button', { name: /print list/i })).toBeTruthy();
  });

  it('names the subject, the distance and how it was measured', async () => {
    renderPanel();
    await screen.findByText('3 records within 300 ft of this parcel');
    const line = document.querySelector('.opp-abutters__subject')!;
    expect(line.textContent).toBe(
      "Abutters within 300 ft of 1 MAIN ST (Map/Lot U1-001). Measured from this parcel's boundary, " +
        "using the town's parcel map of 03/01/2026; the map is a reference, not a survey.",
    );
    expect(screen.queryByText(/has no owner names/)).toBeNull();
  });

  it('says when the roll has no owner names, and offers Current Occupant labels, counted', async () => {
    const user = userEvent.setup();
    const nameless = (i: number, feet: number): Abutter => ({ ...abutter(i, feet), Owners: [] });
    answer = (feet) => listOf(feet, [nameless(1, 0), nameless(2, 45), nameless(3, 180)]);
    renderPanel();
    expect(await screen.findByText(/This roll has no owner names for these records\./)).toBeTruthy();
    const count = () => document.querySelector('.opp-abutters__label-count')!.textContent;
    expect(count()).toBe(
      'The labels PDF holds 0 owner labels. 3 records with no mailing address get no label.',
    );
    await user.click(
      screen.getByRole('checkbox', { name: /Current Occupant.* 3 records with no mailing address/ }),
    );
    expect(count()).toBe('The labels PDF holds 0 owner labels and 3 “Current Occupant” labels.');
    expect(screen.getByRole('link', { name: /mailing labels/i }).getAttribute('href')).toBe(
      '/api/abutters/7/1000/abutters.pdf?distance=300&occupants=1',
    );
  });

  it('counts one label for co-owners at one address, one each on request', async () => {
    const user = userEvent.setup();
    const pair = abutter(1, 0);
    pair.Owners.push({ ...pair.Owners[0]!, OwnerName: 'NEIGHBOUR 1 SPOUSE' });
    answer = (feet) => listOf(feet, [pair, abutter(2, 45)]);
    renderPanel();
    await screen.findByText('2 records within 300 ft of this parcel');
    const count = () => document.querySelector('.opp-abutters__label-count')!.textContent;
    expect(count()).toBe('The labels PDF holds 2 owner labels.');
    expect(screen.queryByRole('checkbox', { name: /Current Occupant/ })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: /One label per owner/ }));
    expect(count()).toBe('The labels PDF holds 3 owner labels.');
    expect(screen.getByRole('link', { name: /mailing labels/i }).getAttribute('href')).toBe(
      '/api/abutters/7/1000/abutters.pdf?distance=300&perOwner=1',
    );
  });

  it('says "Owner information withheld" for an abutter whose owners are withheld (issue 39)', async () => {
    answer = (feet) => listOf(feet, [abutter(1, 0), { ...abutter(2, 45), Owners: [], SuppressOwner: true }]);
    renderPanel();
    const table = await screen.findByRole('table', { name: 'Abutters within 300 ft, nearest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('NEIGHBOUR 1')).toBeTruthy();
    expect(within(rows[1]!).getByText('Owner information withheld')).toBeTruthy();
  });

  it('asks again for a chosen or typed distance', async () => {
    const user = userEvent.setup();
    renderPanel();
    await screen.findByText('3 records within 300 ft of this parcel');
    await user.click(screen.getByRole('button', { name: '100 ft' }));
    expect(await screen.findByText('1 record within 100 ft of this parcel')).toBeTruthy();
    expect(screen.getByRole('button', { name: '100 ft' }).getAttribute('aria-pressed')).toBe('true');
    expect(distanceBox()).toHaveProperty('value', '100');
    await user.clear(distanceBox());
    await user.type(distanceBox(), '250');
    expect(await screen.findByText('3 records within 250 ft of this parcel')).toBeTruthy();
    expect(distances()).toContain('250');
    expect(screen.getByRole('link', { name: /download csv/i }).getAttribute('href')).toBe(
      '/api/abutters/7/1000/abutters.csv?distance=250',
    );
  });

  it('says what is wrong with a typed distance as it is typed, and asks nothing for it', async () => {
    const user = userEvent.setup();
    renderPanel();
    await screen.findByText('3 records within 300 ft of this parcel');
    await user.clear(distanceBox());
    expect(distanceBox().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter a distance in feet, from 0 to 2640.')).toBeTruthy();
    await user.type(distanceBox(), '3000');
    const problem = 'The distance must be a whole number of feet from 0 to 2640.';
    expect(screen.getByText(problem)).toBeTruthy();
    expect(distanceBox().getAttribute('aria-describedby')).toContain(screen.getByText(problem).id);
    await user.clear(distanceBox());
    await user.type(distanceBox(), '12.5');
    expect(screen.getByText(problem)).toBeTruthy();
    // Only the valid prefixes were asked for (3, 30, 300; 1, 12); never 3000 or 12.5.
    expect(distances()).not.toContain('3000');
    expect(distances()).not.toContain('12.5');
    await user.clear(distanceBox());
    await user.type(distanceBox(), '0');
    await waitFor(() => expect(distanceBox().getAttribute('aria-invalid')).toBeNull());
    expect(screen.queryByText(problem)).toBeNull();
  });

  it('says so when no parcel lies within the distance', async () => {
    answer = (feet) => listOf(feet, []);
    renderPanel();
    expect(await screen.findByText('No other parcel lies within 300 ft of this one.')).toBeTruthy();
    expect(screen.getByText('0 records within 300 ft of this parcel')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("shows the server's reason when the list cannot be had", async () => {
    answer = () =>
      new Response(
        JSON.stringify({
          statusCode: 404,
          code: 'not_found',
          message: 'This town has no parcel map.',
          error: 'Not found',
        }),
        { status: 404 },
      );
    renderPanel();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The abutters could not be listed. This town has no parcel map.');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('link', { name: /download csv/i })).toBeNull();
  });
});
