import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { recordComponentTrace } from '@/lib/component-trace';
import { App } from './app';
import { router } from './router';

// index.html's painted page stays on screen until the first route's chunk is here: rendering earlier
// would swap it for an empty loading placeholder, then for the page.
function whenRouterReady(render: () => void) {
  if (router.state.initialized) return render();
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    render();
  });
}

/** Renders the app into #root, replacing the page the server painted there. */
export function mountApp(): void {
  whenRouterReady(() => {
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
          <App />
        </StrictMode>,
      ),
    );
  });
}
