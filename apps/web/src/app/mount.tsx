import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { holdStaticSearchSubmits } from '@/features/search/utils/static-search-box';
import { recordComponentTrace } from '@/lib/component-trace';
import { yieldToMain } from '@/lib/yield';
import { App } from './app';
import { preloadRoute } from './router';

/**
 * Renders the app into #root, replacing the page the server painted there. This chunk's evaluation
 * (React's renderer) and the loading of the page's route chunk run in tasks of their own: together
 * they would hold a phone's main thread for about a quarter of a second.
 */
export async function mountApp(): Promise<void> {
  holdStaticSearchSubmits();
  await yieldToMain();
  // index.html's painted page stays on screen until the page's route chunk is here: rendering earlier
  // would swap it for an empty loading placeholder, then for the page. A chunk that fails to load is
  // rendered all the same: the crash screen says so.
  await preloadRoute(window.location.pathname).catch(() => undefined);
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
}
