import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SORT, EMPTY_FILTERS, type FilterForm } from '../utils/search-state';
import { AdvancedSearchModal } from './advanced-search-modal';

/* Issue 48: a town's long list of styles narrows as one types; what is ticked stays in view. */

const STYLES = [
  'Bungalow',
  'Cape Cod',
  'Colonial',
  'Contemporary',
  'Conventional',
  'Decker',
  'Family Duplex',
  'Mansard',
  'Ranch',
  'Row End',
  'Row Middle',
  'Victorian',
];

function renderModal(onApply = vi.fn<(f: FilterForm) => void>(), landType: string[] = ['House Lot']) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ landType, buildingStyle: STYLES }))),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AdvancedSearchModal
        clientId={7}
        open
        filters={EMPTY_FILTERS}
        sort={DEFAULT_SORT}
        onClose={() => {}}
        onApply={onApply}
      />
    </QueryClientProvider>,
  );
  return onApply;
}

const styleGroup = () => screen.getByRole('group', { name: 'Style' });
const styleNames = () =>
  within(styleGroup())
    .getAllByRole('checkbox')
    .map((c) => c.nextElementSibling?.textContent ?? '');

describe('Advanced Search: finding a style', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('narrows the styles as one types, keeps a ticked one in view, and Enter does not run the search', async () => {
    const onApply = renderModal();
    const find = await screen.findByRole('searchbox', { name: 'Find a style' });
    expect(styleNames()).toEqual(STYLES);
    await userEvent.click(within(styleGroup()).getByLabelText('Colonial'));
    await userEvent.type(find, 'row{Enter}');
    expect(onApply).not.toHaveBeenCalled();
    await waitFor(() => expect(styleNames()).toEqual(['Colonial', 'Row End', 'Row Middle']));
    expect(screen.getByText('3 of 12 style choices shown')).toBeTruthy();
    await userEvent.click(within(styleGroup()).getByLabelText('Row End'));
    await userEvent.clear(find);
    expect(styleNames()).toEqual(STYLES);
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(onApply.mock.calls[0]![0].buildingStyles).toEqual(['Colonial', 'Row End']);
  });

  it('a short list (the land types here) has no box to type in', async () => {
    renderModal();
    await screen.findByRole('searchbox', { name: 'Find a style' });
    expect(screen.getAllByRole('searchbox')).toHaveLength(1);
  });
});
