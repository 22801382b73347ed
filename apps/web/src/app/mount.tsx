import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { holdStaticSearchSubmits } from '@/features/search/utils/static-search-box';
import { recordComponentTrace } from '@/lib/component-trace';
import { yieldToMain } from '@/lib/yield';
import { App } from './app';
import { createAppRouter } from './router';

// index.html's painted page stays on screen until the first route's chunk is here: rendering earlier
// would swap it for an empty loading placeholder, then for the page.
function whenRouterReady(router: Router, render: () => void) {
  if (router.state.initialized) return render();
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    render();
  });
}

type Router = ReturnType<typeof createAppRouter>;

/**
 * Renders the app into #root, replacing the page the server painted there. This chunk's evaluation
 * (React's renderer) and the router's creation (which starts loading the page's route) run in tasks of
 * their own: together they would hold a phone's main thread for about a quarter of a second.
 */
export async function mountApp(): Promise<void> {
  holdStaticSearchSubmits();
  await yieldToMain();
  const router = createAppRouter();
  whenRouterReady(router, () => {
    const root = createRoot(document.getElementById('root')!, {
      // The crash screen shows the component trace of the error it caught (spec §2).
      onCaughtError: (error, info) => {
        recordComponentTrace(error, info);
        console.error(error);
      },
    });
    // As a transition the first render is done in slices of a few milliseconds between which the
    // browser can answer a tap or a key; index.html's painted page stays on screen until it is done.
    startTransition(() =>
      root.render(
        <StrictMode>
          <App router={router} />
        </StrictMode>,
      ),
    );
  });
}
