import type { PaintedPage } from '@opp/contracts/painted-page';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { HomePanel } from '@/app/routes/public/home';
import { PublicMain } from '@/components/layouts/public-layout';
import { TownHeading, TownPage } from '@/features/municipalities/components/town-heading';
import { RecordHead } from '@/features/properties/components/property-header';
import { SearchBar } from '@/features/search/components/search-bar';
import { STATIC_QUERY_ID } from '@/features/search/utils/static-search-box';

/*
 * What the server paints into index.html before the app's scripts run (apps/server/src/plugins/web-app.ts,
 * docs/decisions/0008-web-performance.md): a page's largest element (a town's banner, the search box's
 * label, a record's address, the home page's introduction) rendered by the page's own components, so the
 * browser shows it without waiting for the app, and React later puts the same elements in the same place.
 * Built for Node by vite.config.ts (painter), never part of the browser's bundle.
 */

const nothing = () => {};

function Page(p: PaintedPage) {
  if (p.page === 'home') return <HomePanel />;
  if (p.page === 'record')
    return (
      <TownPage record>
        <TownHeading client={p.town} as="p" />
        {p.heading === null ? null : <RecordHead address={p.heading} />}
      </TownPage>
    );
  return (
    <TownPage>
      <TownHeading client={p.town} />
      <div className="opp-search">
        <QueryClientProvider client={new QueryClient()}>
          <SearchBar
            clientId={p.town.ClientID}
            query={p.query}
            filterCount={0}
            inputId={STATIC_QUERY_ID}
            onSearch={nothing}
            onPickSuggestion={nothing}
            onAdvanced={nothing}
            onClear={nothing}
          />
        </QueryClientProvider>
      </div>
    </TownPage>
  );
}

/** The page's first content as HTML, for index.html's `<!--opp-static-page-->` mark. */
export function paintPage(page: PaintedPage): string {
  return renderToStaticMarkup(
    <PublicMain>
      <Page {...page} />
    </PublicMain>,
  );
}
