import { queryClient } from './app/query-client';
import { prefetchPublicPage } from './features/municipalities/api/prefetch-public-page';
import { yieldToMain } from './lib/yield';
import './styles/index.css';

// The page's data is requested at once, while the app's chunks are still loading (no
// fetch-after-render waterfall).
prefetchPublicPage(queryClient, window.location);

// The app itself (React's renderer, the router, the page; app/mount.tsx, preloaded beside this entry)
// runs in a task of its own. This entry is only asked for once the browser has painted what the server
// sent (start-after-paint.ts).
void yieldToMain()
  .then(() => import('./app/mount'))
  .then(({ mountApp }) => mountApp());
