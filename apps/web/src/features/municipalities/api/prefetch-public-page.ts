import type { PublicClient } from '@opp/contracts';
import { BANNER_SOURCES, imageAtWidthUrl } from '@opp/contracts/image-sizes';
import type { QueryClient } from '@tanstack/react-query';
import { getPropertyQueryOptions } from '@/features/properties/api/get-property';
import { searchPropertiesQueryOptions } from '@/features/search/api/search-properties';
import {
  DEFAULT_SEARCH,
  hasSearchParams,
  loadSearchState,
  paramsToSearch,
} from '@/features/search/utils/search-state';
import { fileImageUrl } from '@/utils/links';
import { getMunicipalityQueryOptions } from './get-municipality';

/** Path segments that are not a record's account under /{state}/{city}/… (see config/paths.ts). */
const NOT_AN_ACCOUNT = new Set(['search', 'admin']);

/**
 * The town as the server put it in index.html for this URL (apps/server/src/plugins/web-app.ts): the
 * answer of GET /api/client/{id}, so the page need not wait for the lookup and the record.
 */
function embeddedTown(): PublicClient | null {
  const text = document.getElementById('opp-town')?.textContent;
  if (!text) return null;
  try {
    const town = JSON.parse(text) as PublicClient | null;
    return typeof town?.ClientID === 'number' ? town : null;
  } catch {
    return null;
  }
}

/**
 * Starts the API requests a public town page needs before React and the route's chunk have loaded,
 * under the query keys the page's hooks use, so the page renders from the cache instead of waiting for
 * its chunk, then the municipality, then its data (a three-step waterfall on a slow phone). The
 * municipality usually comes with the page (embeddedTown); otherwise it is fetched here.
 * Search pages: the municipality, then the search the page will show (the URL's, else the stored one,
 * spec §4). Record pages: the municipality and the record at once (the record needs only the URL).
 * The town's banner (the largest thing on both pages) is requested as soon as its name is known, not
 * after the page has rendered. Failures are left to the page: its own query reports them as it always did.
 */
export function prefetchPublicPage(queryClient: QueryClient, location: Location): void {
  const parts = location.pathname.split('/').filter(Boolean);
  if (parts.length < 2 || parts.length > 3) return;
  let state: string;
  let city: string;
  let third: string | undefined;
  try {
    [state, city, third] = parts.map((p) => decodeURIComponent(p)) as [string, string, string | undefined];
  } catch {
    return; // a malformed URL: the router sends it home
  }
  if (third === 'admin' || state === 'admin') return;

  const options = getMunicipalityQueryOptions(state, city);
  const town = embeddedTown();
  if (town) queryClient.setQueryData(options.queryKey, town);
  const municipality = queryClient.fetchQuery(options).then(
    (client) => {
      if (client.BannerImage) {
        // The <img> the page renders later is served from the document's image cache.
        // The copy TownHeading's <picture> will choose on this screen.
        const url = fileImageUrl(client.BannerImage);
        const copy = BANNER_SOURCES.find((s) => window.matchMedia(s.media).matches);
        const banner = new Image();
        banner.fetchPriority = 'high';
        banner.src = copy ? imageAtWidthUrl(url, copy.width) : url;
      }
      return client;
    },
    () => null,
  );
  if (third !== undefined && !NOT_AN_ACCOUNT.has(third)) {
    void queryClient.prefetchQuery(getPropertyQueryOptions(third, state, city));
    return;
  }
  const params = new URLSearchParams(location.search);
  const search = hasSearchParams(params)
    ? paramsToSearch(params)
    : (loadSearchState(state, city) ?? DEFAULT_SEARCH);
  void municipality.then((client) => {
    if (client) void queryClient.prefetchQuery(searchPropertiesQueryOptions(client.ClientID, search));
  });
}
