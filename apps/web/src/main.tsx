import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { queryClient } from './app/provider';
import { router } from './app/router';
import { prefetchPublicPage } from './features/municipalities/api/prefetch-public-page';
import { recordComponentTrace } from './lib/component-trace';
import './styles/index.css';

// The page's data is requested while the route's chunk is still loading (no fetch-after-render waterfall).
prefetchPublicPage(queryClient, window.location);

// index.html's header stays on screen until the first route's chunk is here: rendering earlier would
// swap it for an empty loading placeholder, then for the page. (A callback, not a top-level await: the
// route chunks import from this one, which must therefore finish evaluating first.)
function whenRouterReady(render: () => void) {
  if (router.state.initialized) return render();
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    render();
  });
}

whenRouterReady(() =>
  createRoot(document.getElementById('root')!, {
    // The crash screen shows the component trace of the error it caught (spec §2).
    onCaughtError: (error, info) => {
      recordComponentTrace(error, info);
      console.error(error);
    },
  }).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
