import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FindPropertyForm } from './find-property-form';

const CITIES: Record<string, string[]> = {
  Maine: ['harrison', 'Bridgton', 'Albany Township'],
  'New Hampshire': ['Lyme'],
};

function mockApi() {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
    if (url.pathname === '/api/states') return json(['Maine', 'New Hampshire']);
    const m = /^\/api\/(.+)\/cities$/.exec(url.pathname);
    if (m) return json(CITIES[decodeURIComponent(m[1]!)] ?? []);
    return new Response('{}', { status: 404 });
  });
}

function renderForm(onSearch = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <FindPropertyForm onSearch={onSearch} />
    </QueryClientProvider>,
  );
  return {
    onSearch,
    region: () => screen.getByLabelText('Region') as HTMLSelectElement,
    community: () => screen.getByLabelText('Community') as HTMLSelectElement,
    search: () => screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement,
  };
}

describe('Find A Property (spec §2, §4, §5)', () => {
  beforeEach(() => vi.stubGlobal('fetch', mockApi()));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('starts on Maine with its communities sorted, and Search disabled until one is chosen', async () => {
    const f = renderForm();
    expect(f.region().value).toBe('Maine');
    await waitFor(() => expect(f.community().options.length).toBe(4));
    expect([...f.community().options].map((o) => o.text)).toEqual([
      '- Select a community -',
      'Albany Township',
      'Bridgton',
      'harrison',
    ]);
    expect(f.community().disabled).toBe(false);
    expect(f.search().disabled).toBe(true);
    await userEvent.selectOptions(f.community(), 'Bridgton');
    expect(f.search().disabled).toBe(false);
    await userEvent.click(f.search());
    expect(f.onSearch).toHaveBeenCalledWith('Maine', 'Bridgton');
  });

  it('disables Community and Search again when the region is cleared, and reloads on a new region', async () => {
    const f = renderForm();
    await waitFor(() => expect(f.community().options.length).toBe(4));
    await userEvent.selectOptions(f.community(), 'Bridgton');
    await userEvent.selectOptions(f.region(), '');
    expect(f.community().disabled).toBe(true);
    expect(f.search().disabled).toBe(true);
    await userEvent.selectOptions(f.region(), 'New Hampshire');
    await waitFor(() => expect([...f.community().options].map((o) => o.value)).toEqual(['', 'Lyme']));
    expect(f.community().value).toBe('');
    expect(f.search().disabled).toBe(true);
  });

  it('searches on Enter in the Community list, and not before a community is chosen', async () => {
    const f = renderForm();
    await waitFor(() => expect(f.community().options.length).toBe(4));
    f.community().focus();
    await userEvent.keyboard('{Enter}');
    expect(f.onSearch).not.toHaveBeenCalled();
    await userEvent.selectOptions(f.community(), 'harrison');
    f.community().focus();
    await userEvent.keyboard('{Enter}');
    expect(f.onSearch).toHaveBeenCalledWith('Maine', 'harrison');
  });
});
