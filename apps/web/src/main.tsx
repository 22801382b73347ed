import { queryClient } from './app/query-client';
import { prefetchPublicPage } from './features/municipalities/api/prefetch-public-page';
import { afterPaint } from './lib/yield';
import './styles/index.css';

// The page's data is requested at once, while the app's chunks are still loading (no
// fetch-after-render waterfall).
prefetchPublicPage(queryClient, window.location);

// The app itself (React's renderer, the router, the page; app/mount.tsx, which the HTML preloads) runs
// after the browser has painted what the server sent: the header, a town's heading and search box.
void afterPaint()
  .then(() => import('./app/mount'))
  .then(({ mountApp }) => mountApp());
