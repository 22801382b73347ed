import { beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_TTL_MS } from '@/utils/expiring-storage';
import {
  DEFAULT_SEARCH,
  EMPTY_FILTERS,
  hasSearchParams,
  loadSearchState,
  nextSort,
  paramsToSearch,
  saveSearchState,
  searchStorageKey,
  searchToParams,
  toSearchBody,
  type SearchState,
} from './search-state';

const T0 = 1_750_000_000_000;
const DAY = 86_400_000;

const sample: SearchState = {
  query: 'smith',
  filters: {
    ...EMPTY_FILTERS,
    salePriceMin: '100000',
    saleDateFrom: '2020-01-01',
    landTypes: ['Waterfront', 'Rear Land'],
    bedrooms: '3',
    ownership: ['residential'],
  },
  sort: { sortby: 'SalePrice', descending: true },
  page: 3,
  view: 'grid',
};

describe('sort clicks (spec §4)', () => {
  it('sorts a new column ascending and toggles the same column', () => {
    const a = nextSort({ sortby: 'Name', descending: false }, 'Acres');
    expect(a).toEqual({ sortby: 'Acres', descending: false });
    const b = nextSort(a, 'Acres');
    expect(b).toEqual({ sortby: 'Acres', descending: true });
    expect(nextSort(b, 'Acres')).toEqual({ sortby: 'Acres', descending: false });
    expect(nextSort(b, 'MapLot')).toEqual({ sortby: 'MapLot', descending: false });
  });
});

describe('search in the URL', () => {
  it('round-trips every part of a search', () => {
    const params = searchToParams(sample);
    expect(hasSearchParams(params)).toBe(true);
    expect(paramsToSearch(new URLSearchParams(params.toString()))).toEqual(sample);
  });
  it('keeps the default search out of the URL', () => {
    expect(searchToParams(DEFAULT_SEARCH).toString()).toBe('');
    expect(hasSearchParams(new URLSearchParams('utm=1'))).toBe(false);
  });
  it('falls back to defaults for nonsense values', () => {
    const s = paramsToSearch(new URLSearchParams('sort=DROP&page=-4&view=tiles&own=hotel'));
    expect(s.sort).toEqual(DEFAULT_SEARCH.sort);
    expect(s.page).toBe(1);
    expect(s.view).toBe('list');
    expect(s.filters.ownership).toEqual([]);
  });
});

describe('search request body', () => {
  it('sends only the filters that are set, as numbers, plus the sort', () => {
    expect(toSearchBody(sample)).toEqual({
      filters: {
        sale: { price: { start: 100000 }, date: { start: '2020-01-01' } },
        land: { type: ['Waterfront', 'Rear Land'] },
        building: { bedrooms: 3, ownership: ['residential'] },
      },
      sort: { sortby: 'SalePrice', descending: true },
    });
  });
  it('sends an area that is not a number as typed, for the server to name', () => {
    const s = {
      ...DEFAULT_SEARCH,
      filters: { ...EMPTY_FILTERS, landAreaMin: '1,5 acres', buildingAreaMax: '2,000' },
    };
    expect(toSearchBody(s).filters).toEqual({
      land: { area: { start: '1,5 acres' } },
      building: { area: { end: 2000 } },
    });
  });
  it('sends no filters for an empty form', () => {
    expect(toSearchBody(DEFAULT_SEARCH)).toEqual({ sort: { sortby: 'Name', descending: false } });
  });
});

describe('stored search state (spec §4)', () => {
  beforeEach(() => localStorage.clear());

  it('is kept per state and city', () => {
    saveSearchState('Maine', 'Harrison', sample, T0);
    expect(loadSearchState('Maine', 'Harrison', T0 + DAY)).toEqual(sample);
    expect(loadSearchState('Maine', 'Bridgton', T0 + DAY)).toBeNull();
    // The same town however the URL spells it.
    expect(loadSearchState('maine', 'HARRISON', T0 + DAY)).toEqual(sample);
  });

  it('is restored until 7 days after the last change, then deleted', () => {
    saveSearchState('Maine', 'Harrison', sample, T0);
    expect(loadSearchState('Maine', 'Harrison', T0 + STORAGE_TTL_MS - 1)).not.toBeNull();
    expect(loadSearchState('Maine', 'Harrison', T0 + STORAGE_TTL_MS + 1)).toBeNull();
    expect(localStorage.getItem(searchStorageKey('Maine', 'Harrison'))).toBeNull();
  });

  it('turns zero land area, sale price, bedrooms and bathrooms into empty fields on restore', () => {
    const zeros = {
      ...sample,
      filters: {
        ...sample.filters,
        landAreaMin: 0,
        landAreaMax: '0',
        salePriceMin: '0',
        salePriceMax: 0,
        bedrooms: 0,
        bathrooms: '0.0',
        buildingAreaMin: '0',
      },
    };
    localStorage.setItem(
      searchStorageKey('Maine', 'Harrison'),
      JSON.stringify({ value: zeros, expiresAt: T0 + DAY }),
    );
    const restored = loadSearchState('Maine', 'Harrison', T0)!;
    expect(restored.filters).toMatchObject({
      landAreaMin: '',
      landAreaMax: '',
      salePriceMin: '',
      salePriceMax: '',
      bedrooms: '',
      bathrooms: '',
    });
    // Only those four: a zero building area is a real bound and stays.
    expect(restored.filters.buildingAreaMin).toBe('0');
  });

  it('replaces malformed stored parts with defaults', () => {
    localStorage.setItem(
      searchStorageKey('Maine', 'Harrison'),
      JSON.stringify({
        value: { query: 7, sort: { sortby: 'Nope' }, filters: 'x', view: 'grid' },
        expiresAt: T0 + DAY,
      }),
    );
    expect(loadSearchState('Maine', 'Harrison', T0)).toEqual({ ...DEFAULT_SEARCH, view: 'grid' });
  });
});
