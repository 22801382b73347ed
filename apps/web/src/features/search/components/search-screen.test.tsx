import type { SearchResponse, SearchResult } from '@opp/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_TTL_MS } from '@/utils/expiring-storage';
import { EMPTY_FILTERS, resultsStorageKey, searchStorageKey } from '../utils/search-state';
import { SearchScreen } from './search-screen';

/*
 * The search screen against a fake API: what it asks the server for, what it keeps in the URL and in
 * browser storage (spec §4 restore rules), and how the sort headers behave.
 */

/** Result i; `comparing: false` is a roll that records no year built or style. */
const summary = (i: number, comparing = true): SearchResult => ({
  Account: String(100 + i),
  MapLot: `M-${i}`,
  Owners: [{ OwnerName: `OWNER ${i}` }, { OwnerName: `CO-OWNER ${i}` }, { OwnerName: `THIRD ${i}` }],
  StreetNumber: String(i),
  Apartment: '',
  StreetName: 'MAIN ST',
  TotalBuildingValue: 100_000,
  LandValue: 25_000.5,
  TotalAcres: 1.5,
  SaleDate: '2020-01-02',
  SalePrice: i === 1 ? 0 : 150_000,
  ImageURL: null,
  YearBuilt: comparing && i !== 2 ? 1900 + i : null,
  BuildingStyles: !comparing || i === 2 ? [] : i === 3 ? ['CAPE', 'RANCH'] : ['CAPE'],
});

let requests: { url: URL; body: unknown }[] = [];

function mockApi(total = 120, comparing = true) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    requests.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const area = (requests.at(-1)?.body as { filters?: { land?: { area?: { start?: unknown } } } })?.filters
      ?.land?.area?.start;
    if (url.pathname === '/api/propertysearch/7' && typeof area === 'string') {
      const message = 'filters.land.area.start: Land area from must be a number';
      return new Response(
        JSON.stringify({ statusCode: 400, code: 'validation_failed', message, error: message }),
        {
          status: 400,
        },
      );
    }
    if (url.pathname === '/api/propertysearch/7') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const body: SearchResponse = {
        SearchProperties: total === 0 ? [] : [1, 2, 3].map((n) => summary(n + (page - 1) * 50, comparing)),
        PageSize: 50,
        PageNumber: page,
        Pages: Math.ceil(total / 50),
        TotalRecords: total,
        TotalIsEstimate: false,
        LastUpdated: '2025-03-14T12:00:00.000Z',
        TaxYear: 2014,
        ValuationDate: '2013-01-01',
      };
      return new Response(JSON.stringify(body), { status: 200 });
    }
    if (url.pathname === '/api/landbuilding/7')
      return new Response(
        JSON.stringify({ landType: ['House Lot', 'Waterfront'], buildingStyle: ['Cape', 'Ranch'] }),
      );
    if (url.pathname === '/api/suggest/7')
      return new Response(
        JSON.stringify({
          suggestions: [
            { kind: 'owner', text: 'SMITH, JOHN', account: null },
            { kind: 'address', text: '12 SMITH RD', account: '555' },
          ],
        }),
      );
    return new Response('{}', { status: 404 });
  });
}

function Screen() {
  const { state = '', city = '' } = useParams();
  return <SearchScreen clientId={7} state={state} city={city} />;
}

function renderAt(url: string) {
  const routes = [
    { path: '/:state/:city/search', element: <Screen /> },
    { path: '/:state/:city/:account', element: <p>record</p> },
  ];
  const router = createMemoryRouter(routes, {
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

const searches = () => requests.filter((r) => r.url.pathname === '/api/propertysearch/7');
const lastSearch = () => searches().at(-1)!;

describe('search screen', () => {
  beforeEach(() => {
    requests = [];
    localStorage.clear();
    vi.stubGlobal('fetch', mockApi());
    window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('restores the stored search on a bare URL, emptying zero price, area, bedrooms and bathrooms', async () => {
    localStorage.setItem(
      searchStorageKey('Maine', 'Harrison'),
      JSON.stringify({
        value: {
          query: 'smith',
          filters: {
            ...EMPTY_FILTERS,
            salePriceMin: 0,
            landAreaMax: '0',
            bedrooms: 0,
            bathrooms: '0',
            ownership: ['commercial'],
          },
          sort: { sortby: 'Acres', descending: true },
          page: 2,
          view: 'grid',
        },
        expiresAt: Date.now() + 1000 * 60,
      }),
    );
    const router = renderAt('/Maine/Harrison/search');
    await screen.findByText('Showing 51 to 100 of 120 results');
    expect(lastSearch().url.searchParams.get('query')).toBe('smith');
    expect(lastSearch().url.searchParams.get('page')).toBe('2');
    expect(lastSearch().url.searchParams.get('pagesize')).toBe('50');
    expect(lastSearch().body).toEqual({
      filters: { building: { ownership: ['commercial'] } },
      sort: { sortby: 'Acres', descending: true },
    });
    // The restored search is now in the URL, so it can be shared.
    const params = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(params)).toEqual({
      q: 'smith',
      own: 'commercial',
      sort: 'Acres',
      desc: '1',
      page: '2',
      view: 'grid',
    });
    expect(screen.getByRole('list', { name: 'Search results' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Grid/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('deletes an expired stored search and starts from the defaults (Name ascending, list, page 1)', async () => {
    localStorage.setItem(
      searchStorageKey('Maine', 'Harrison'),
      JSON.stringify({ value: { query: 'old', page: 3 }, expiresAt: Date.now() - 1 }),
    );
    const router = renderAt('/Maine/Harrison/search');
    await screen.findByText('Showing 1 to 50 of 120 results');
    expect(lastSearch().url.searchParams.get('query')).toBeNull();
    expect(lastSearch().body).toEqual({ sort: { sortby: 'Name', descending: false } });
    expect(router.state.location.search).toBe('');
    const stored = JSON.parse(localStorage.getItem(searchStorageKey('Maine', 'Harrison'))!);
    expect(stored.value.query).toBe('');
    expect(stored.expiresAt).toBeGreaterThan(Date.now() + STORAGE_TTL_MS - 60_000);
  });

  it('lets the URL win over stored state, and stores the result paths for Previous/Next', async () => {
    localStorage.setItem(
      searchStorageKey('Maine', 'Harrison'),
      JSON.stringify({ value: { query: 'stored' }, expiresAt: Date.now() + 60_000 }),
    );
    renderAt('/Maine/Harrison/search?q=shared&page=3');
    await screen.findByText('Showing 101 to 120 of 120 results');
    expect(lastSearch().url.searchParams.get('query')).toBe('shared');
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(resultsStorageKey('Maine', 'Harrison'))!).value).toMatchObject({
        page: 3,
        pageSize: 50,
        total: 120,
        search: { query: 'shared', page: 3 },
        paths: ['/Maine/Harrison/201', '/Maine/Harrison/202', '/Maine/Harrison/203'],
      }),
    );
    expect(JSON.parse(localStorage.getItem(searchStorageKey('Maine', 'Harrison'))!).value.query).toBe(
      'shared',
    );
  });

  it('shows each result as spec §2 lists it', async () => {
    renderAt('/Maine/Harrison/search');
    const table = await screen.findByRole('table');
    const row = within(table).getAllByRole('row')[1]!;
    const cells = within(row).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual([
      '',
      'M-1, 1 MAIN ST (account 101)',
      // Two owners, and a hint of the third the record lists.
      'OWNER 1CO-OWNER 1+1 more',
      // With the lines a tablet's width shows instead of the last two columns (styles/public.css).
      '1 MAIN STYear Built 1901Style CAPE',
      '$125,000.50',
      '1.50',
      '01/02/2020',
      // Price 0 is not shown.
      '',
      '1901',
      'CAPE',
    ]);
    expect(within(cells[0]!).getByRole('img', { name: 'No photo available' })).toBeTruthy();
    expect(within(cells[1]!).getByRole('link').getAttribute('href')).toBe('/Maine/Harrison/101');
  });

  it('sorts a column ascending on the first click, toggles on the next, resets others, and starts at page 1', async () => {
    const router = renderAt('/Maine/Harrison/search?page=2');
    await screen.findByText('Showing 51 to 100 of 120 results');
    const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
    expect(header('Name').getAttribute('aria-sort')).toBe('ascending');

    await userEvent.click(within(header('Acres')).getByRole('button'));
    await screen.findByText('Showing 1 to 50 of 120 results');
    expect(header('Acres').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Name').getAttribute('aria-sort')).toBe('none');
    expect(lastSearch().body).toEqual({ sort: { sortby: 'Acres', descending: false } });

    await userEvent.click(within(header('Acres')).getByRole('button'));
    await waitFor(() => expect(header('Acres').getAttribute('aria-sort')).toBe('descending'));
    await waitFor(() => expect(lastSearch().body).toEqual({ sort: { sortby: 'Acres', descending: true } }));
    expect(new URLSearchParams(router.state.location.search).get('desc')).toBe('1');

    // Back returns to the previous search (the URL carries it).
    await act(() => router.navigate(-1));
    await waitFor(() => expect(header('Acres').getAttribute('aria-sort')).toBe('ascending'));
  });

  it('clear filters resets the query, filters and sort to Name ascending and searches again', async () => {
    renderAt('/Maine/Harrison/search?q=smith&beds=3&sort=SalePrice&desc=1&page=2');
    await screen.findByText('Showing 51 to 100 of 120 results');
    expect((screen.getByRole('combobox') as HTMLInputElement).value).toBe('smith');
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByText('Showing 1 to 50 of 120 results');
    expect(lastSearch().url.searchParams.get('query')).toBeNull();
    expect(lastSearch().body).toEqual({ sort: { sortby: 'Name', descending: false } });
    expect((screen.getByRole('combobox') as HTMLInputElement).value).toBe('');
  });

  it('runs the text search on Enter, from page 1', async () => {
    renderAt('/Maine/Harrison/search?page=2');
    await screen.findByText('Showing 51 to 100 of 120 results');
    await userEvent.type(screen.getByRole('combobox'), 'lake rd{Enter}');
    await screen.findByText('Showing 1 to 50 of 120 results');
    expect(lastSearch().url.searchParams.get('query')).toBe('lake rd');
  });

  it('advanced search: numbers read as numbers, checkboxes from /api/landbuilding, Search closes and runs page 1', async () => {
    renderAt('/Maine/Harrison/search?page=2');
    await screen.findByText('Showing 51 to 100 of 120 results');
    const opener = screen.getByRole('button', { name: /Advanced search/ });
    await userEvent.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Advanced Search' });
    const price = within(dialog).getByLabelText('Sale price from ($)') as HTMLInputElement;
    await userEvent.type(price, '$12a0,000.5');
    // Kept as typed, and said what is wrong with it as it is typed (never rewritten into another number).
    expect(price.value).toBe('$12a0,000.5');
    expect(price.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText('Enter a number, for example 250,000.')).toBeTruthy();
    await userEvent.clear(price);
    await userEvent.type(price, '$120,000.5');
    expect(price.getAttribute('aria-invalid')).toBeNull();
    const beds = within(dialog).getByLabelText('Bedrooms (at least)') as HTMLInputElement;
    await userEvent.type(beds, '3.5');
    expect(beds.value).toBe('3.5');
    expect(within(dialog).getByText('Enter a whole number, for example 3.')).toBeTruthy();
    // Search stays put, with focus on what needs fixing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('dialog', { name: 'Advanced Search' })).toBeTruthy();
    expect(document.activeElement).toBe(beds);
    await userEvent.clear(beds);
    await userEvent.type(beds, '3');
    await userEvent.type(within(dialog).getByLabelText('Bathrooms (at least)'), '2.5');
    const landTo = within(dialog).getByLabelText('Land area to (acres)');
    await userEvent.type(landTo, 'five');
    expect(within(dialog).getByText('Enter a number, for example 2.5.')).toBeTruthy();
    await userEvent.clear(landTo);
    expect((within(dialog).getByLabelText(/^Sale date from/) as HTMLInputElement).type).toBe('date');
    await userEvent.type(within(dialog).getByLabelText('Land area from (acres)'), '1.5 ');
    await userEvent.click(await within(dialog).findByLabelText('Waterfront'));
    await userEvent.click(within(dialog).getByLabelText('Ranch'));
    await userEvent.click(within(dialog).getByLabelText('Residential'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Search' }));

    await screen.findByText('Showing 1 to 50 of 120 results');
    expect(lastSearch().body).toEqual({
      filters: {
        sale: { price: { start: 120000.5 } },
        land: { area: { start: 1.5 }, type: ['Waterfront'] },
        building: { style: ['Ranch'], bedrooms: 3, bathrooms: 2.5, ownership: ['residential'] },
      },
      sort: { sortby: 'Name', descending: false },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Seven filters are set; the button says so, and focus went back to it.
    expect(opener.textContent).toContain('7 filters set');
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('type-ahead: arrow keys move through suggestions; an owner runs a search, an address opens its record', async () => {
    const router = renderAt('/Maine/Harrison/search');
    await screen.findByText('Showing 1 to 50 of 120 results');
    const box = screen.getByRole('combobox');
    await userEvent.type(box, 'smi');
    const list = await screen.findByRole('listbox', { name: 'Suggestions' });
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['SMITH, JOHNOwner', '12 SMITH RDAddress']);
    await userEvent.keyboard('{ArrowDown}');
    const first = within(list).getAllByRole('option')[0]!;
    expect(box.getAttribute('aria-activedescendant')).toBe(first.id);
    expect(first.getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(lastSearch().url.searchParams.get('query')).toBe('SMITH, JOHN'));
    expect(box.getAttribute('aria-expanded')).toBe('false');

    await userEvent.clear(box);
    await userEvent.type(box, 'smi');
    await screen.findByRole('listbox', { name: 'Suggestions' });
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/Maine/Harrison/555'));
  });

  it('shows the error line and the reason the server gives when a filter cannot be read', async () => {
    renderAt('/Maine/Harrison/search?landMin=lots');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('An error has occured please try again');
    expect(alert.textContent).toContain('Land area from must be a number');
    // Never the field's API path.
    expect(alert.textContent).not.toContain('filters.');
  });
});

describe('what the results say about themselves', () => {
  beforeEach(() => {
    requests = [];
    localStorage.clear();
    window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says "No properties match" for an empty result, not "Showing 0 to 0 of 0"', async () => {
    vi.stubGlobal('fetch', mockApi(0));
    renderAt('/Maine/Harrison/search?query=zzz');
    await waitFor(() =>
      expect(document.querySelector('.opp-count')!.textContent).toBe('No properties match'),
    );
    expect(screen.queryByText(/Showing 0/)).toBeNull();
  });

  it("dates the values by the roll's valuation date and fiscal year beside the day it was published", async () => {
    vi.stubGlobal('fetch', mockApi());
    renderAt('/Maine/Harrison/search');
    await screen.findByText('Values as of 01/01/2013, fiscal year 2014 · published on this site 03/14/2025');
  });

  it('shows Year Built and Style in the list and the grid where the results have them, and not for a roll without', async () => {
    vi.stubGlobal('fetch', mockApi());
    renderAt('/Maine/Harrison/search');
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(-2)).toEqual(['Year Built', 'Style']);
    // Year Built sorts like the other columns; a result without a year or style has empty cells.
    const column = (n: number) =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell').at(n)!.textContent);
    expect(column(-2)).toEqual(['1901', '', '1903']);
    expect(column(-1)).toEqual(['CAPE', '', 'CAPE, RANCH']);
    await userEvent.click(
      within(screen.getByRole('columnheader', { name: /^Year Built/ })).getByRole('button'),
    );
    await waitFor(() =>
      expect(lastSearch().body).toEqual({ sort: { sortby: 'YearBuilt', descending: false } }),
    );
    cleanup();

    renderAt('/Maine/Harrison/search?view=grid');
    const cards = within(await screen.findByRole('list', { name: 'Search results' })).getAllByRole(
      'listitem',
    );
    const field = (card: HTMLElement, name: string) =>
      within(card)
        .queryAllByRole('term')
        .find((t) => t.textContent === name)?.nextElementSibling?.textContent;
    expect(field(cards[2]!, 'Year Built')).toBe('1903');
    expect(field(cards[2]!, 'Style')).toBe('CAPE, RANCH');
    cleanup();

    vi.stubGlobal('fetch', mockApi(120, false));
    renderAt('/Maine/Harrison/search?view=grid');
    const grid = await screen.findByRole('list', { name: 'Search results' });
    expect(
      within(grid)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).not.toContain('Year Built');
    expect(
      within(grid)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).not.toContain('Style');
    expect(
      within(grid)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toContain('Acres');
    cleanup();
    renderAt('/Maine/Harrison/search?view=list');
    const bare = await screen.findByRole('table');
    expect(within(bare).getAllByRole('columnheader').at(-1)!.textContent).toBe('Last Sale Price');
    expect(within(bare).queryByRole('columnheader', { name: /Year Built|Style/ })).toBeNull();
  });

  it('names the sort by its label in the table caption, never by its field name', async () => {
    vi.stubGlobal('fetch', mockApi());
    renderAt('/Maine/Harrison/search?sort=YearBuilt&desc=1');
    await screen.findByText('Showing 1 to 50 of 120 results');
    const caption = document.querySelector('caption')!.textContent!;
    expect(caption).toContain('Sorted by Year Built, descending');
    expect(caption).not.toContain('YearBuilt');
  });
});
