import type { SearchResponse } from '@opp/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchScreen } from './search-screen';

/*
 * Year built in the Advanced Search: a range of years and the YearBuilt sort (which has no column of
 * its own in the results), sent to the API, kept in the URL and shown as removable chips.
 */

let requests: { url: URL; body: unknown }[] = [];

const answer: SearchResponse = {
  SearchProperties: [],
  PageSize: 50,
  PageNumber: 1,
  Pages: 0,
  TotalRecords: 0,
  TotalIsEstimate: false,
  LastUpdated: null,
};

function fakeApi() {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    requests.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url.pathname === '/api/propertysearch/7') return new Response(JSON.stringify(answer));
    if (url.pathname === '/api/landbuilding/7')
      return new Response(JSON.stringify({ landType: [], buildingStyle: ['Cape'] }));
    return new Response('{}', { status: 404 });
  });
}

function Screen() {
  const { state = '', city = '' } = useParams();
  return <SearchScreen clientId={7} state={state} city={city} />;
}

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: '/:state/:city/search', element: <Screen /> }], {
    initialEntries: [url],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const lastSearch = () => requests.filter((r) => r.url.pathname === '/api/propertysearch/7').at(-1)!;

describe('advanced search: year built', () => {
  beforeEach(() => {
    requests = [];
    localStorage.clear();
    vi.stubGlobal('fetch', fakeApi());
    window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('searches a range of years, sorted newest first, and keeps both in the link', async () => {
    const router = renderAt('/Maine/Harrison/search');
    await waitFor(() => expect(lastSearch()).toBeTruthy());
    await userEvent.click(screen.getByRole('button', { name: /Advanced search/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Advanced Search' });
    const from = within(dialog).getByLabelText('Year built from') as HTMLInputElement;
    const to = within(dialog).getByLabelText('Year built to') as HTMLInputElement;
    // A year is a whole number, and "to" before "from" finds nothing: both said as typed.
    await userEvent.type(from, '1950.5');
    expect(within(dialog).getByText('Enter a whole number, for example 1950.')).toBeTruthy();
    await userEvent.clear(from);
    await userEvent.type(from, '1950');
    await userEvent.type(to, '1900');
    expect(within(dialog).getByText('This is less than the "from" value.')).toBeTruthy();
    await userEvent.clear(to);
    await userEvent.type(to, '1979');
    await userEvent.selectOptions(within(dialog).getByLabelText('Sort by'), 'Year Built');
    await userEvent.selectOptions(within(dialog).getByLabelText('Order'), 'Highest, newest or Z first');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Search' }));

    await waitFor(() =>
      expect(lastSearch().body).toEqual({
        filters: { building: { yearBuilt: { start: 1950, end: 1979 } } },
        sort: { sortby: 'YearBuilt', descending: true },
      }),
    );
    const params = router.state.location.search;
    expect(params).toContain('builtFrom=1950');
    expect(params).toContain('builtTo=1979');
    expect(params).toContain('sort=YearBuilt');
    expect(screen.getByText('Built in or after 1950')).toBeTruthy();
    expect(screen.getByText('Built in or before 1979')).toBeTruthy();
  });

  it('reopens a shared link with its years and sort filled in', async () => {
    renderAt('/Maine/Harrison/search?builtTo=1900&sort=YearBuilt');
    await waitFor(() =>
      expect(lastSearch().body).toEqual({
        filters: { building: { yearBuilt: { end: 1900 } } },
        sort: { sortby: 'YearBuilt', descending: false },
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: /Advanced search/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Advanced Search' });
    expect((within(dialog).getByLabelText('Year built to') as HTMLInputElement).value).toBe('1900');
    expect((within(dialog).getByLabelText('Sort by') as HTMLSelectElement).value).toBe('YearBuilt');
  });
});
