import { yieldToMain } from '@/lib/yield';

/*
 * The app's start, as modules evaluated in tasks of their own (each import below is a chunk the HTML
 * preloads: apps/web/vite.config.ts preloadPublicRoutes): React's renderer, then the router (which
 * starts loading the page's route), then the app. Evaluated in one task they would hold a phone's main
 * thread for about a quarter of a second.
 */
export async function startApp(): Promise<void> {
  await import('react-dom/client');
  await yieldToMain();
  await import('./router');
  await yieldToMain();
  const { mountApp } = await import('./mount');
  mountApp();
}
