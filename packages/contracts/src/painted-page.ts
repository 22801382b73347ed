import type { PublicClient } from './clients.ts';

/**
 * What the server asks the web app's painter for (apps/web/src/painted-page.tsx, built for Node): the
 * page's first content, rendered from the page's own components, to put into index.html before the
 * app's scripts run (docs/decisions/0008-web-performance.md).
 */
export type PaintedPage =
  | { page: 'home' }
  /** A town's search page: its heading and the search box, holding the URL's query. */
  | { page: 'search'; town: PublicClient; query: string }
  /** A record's page: the town, and the record's heading when the record was found. */
  | { page: 'record'; town: PublicClient; heading: string | null };

/** The painter module's one export (apps/web/dist/.vite/painter/painted-page.js). */
export type PaintPage = (page: PaintedPage) => string;
