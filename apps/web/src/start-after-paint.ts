/*
 * The one script a page asks for before its first paint (docs/decisions/0008-web-performance.md). It
 * waits until the browser has painted what the server sent (the header, a town's heading with its
 * banner, its search box or a record's address) and only then asks for the app's scripts: the entry
 * (main.tsx) and the chunks it and the page's route need, which the build (apps/web/vite.config.ts) and,
 * on a town's pages, the server (apps/server/src/plugins/web-app.ts) list in JSON data blocks. On a slow
 * link the page's own bytes then come first. Lighthouse, too, estimated the paint as if it had waited
 * for every script that happened to download before it: about 1.0 s or 2.0 s for the same page,
 * depending on that race.
 *
 * It imports nothing, so that nothing else is fetched before the paint.
 */

/**
 * The data blocks: the build's (the entry, and the chunks every page needs) and, on a town's pages, the
 * server's (the route's own chunks, which it takes only as asset paths).
 */
interface AppScripts {
  entry: string;
  preload: string[];
}
const block = <T>(id: string): T | null =>
  JSON.parse(document.getElementById(id)?.textContent || 'null') as T;

function startApp(): void {
  const app = block<AppScripts>('opp-app-scripts')!;
  // All at once, beside the entry, rather than each after the module that imports it has arrived.
  // Low priority: a banner or a record still downloading is what the page shows first.
  for (const href of [...app.preload, ...(block<string[]>('opp-route-scripts') ?? [])]) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.fetchPriority = 'low';
    link.href = href;
    document.head.append(link);
  }
  const script = document.createElement('script');
  script.type = 'module';
  script.crossOrigin = '';
  script.fetchPriority = 'low';
  script.src = app.entry;
  document.body.append(script);
}

/** How long a painted image (a town's banner) may hold the app back. */
const MAX_IMAGE_WAIT_MS = 1000;
/** How long to wait for the browser to report a paint it should report (a safety net, never reached). */
const MAX_PAINT_WAIT_MS = 3000;
/**
 * How long to wait for the banner's own paint report: none comes when something already painted is
 * larger (the browser reports only ever larger paints).
 */
const MAX_BANNER_PAINT_WAIT_MS = 100;

const reports = (type: string) => PerformanceObserver.supportedEntryTypes?.includes(type) ?? false;

/**
 * Resolves on the first performance entry of `type` that `accept` takes (one already recorded counts),
 * or after `ms`.
 */
function entry(type: string, accept: (e: PerformanceEntry) => boolean, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntries().some(accept)) done();
    });
    const timer = setTimeout(done, ms);
    function done() {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    }
    observer.observe({ type, buffered: true });
  });
}

/** After the next frame: a browser that reports no paints has painted by then, or very nearly. */
const nextFrame = () =>
  new Promise<void>((resolve) =>
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))),
  );

/**
 * Resolves once every image the server painted (a town's banner) has arrived, or failed, or after
 * MAX_IMAGE_WAIT_MS; with the time then, or null when none was still loading.
 */
async function paintedImagesLoaded(): Promise<number | null> {
  const pending = [...document.querySelectorAll('#root img')].filter(
    (img): img is HTMLImageElement => img instanceof HTMLImageElement && !img.complete,
  );
  if (pending.length === 0) return null;
  const loaded = pending.map(
    (img) =>
      new Promise<void>((resolve) => {
        img.addEventListener('load', () => resolve(), { once: true });
        img.addEventListener('error', () => resolve(), { once: true });
      }),
  );
  await Promise.race([
    Promise.all(loaded),
    new Promise<void>((resolve) => setTimeout(resolve, MAX_IMAGE_WAIT_MS)),
  ]);
  return performance.now();
}

/**
 * Resolves once the browser has shown the page the server sent, banner included. The paint reports
 * come when a frame is on screen; a frame's callback, the usual sign, runs before its frame is even
 * drawn (measured: 37 ms before the first paint was on screen).
 */
async function pagePainted(): Promise<void> {
  // A hidden tab paints nothing; its images load all the same.
  if (document.visibilityState !== 'visible') return;
  if (reports('paint')) await entry('paint', (e) => e.name === 'first-contentful-paint', MAX_PAINT_WAIT_MS);
  else await nextFrame();
  const imagesAt = await paintedImagesLoaded();
  if (imagesAt === null) return;
  if (reports('largest-contentful-paint'))
    await entry('largest-contentful-paint', (e) => e.startTime >= imagesAt, MAX_BANNER_PAINT_WAIT_MS);
  else await nextFrame();
}

// The banner, when there is one, is shown before the scripts are asked for: it is the page's largest
// element, and the scripts would share its bandwidth and hold up the frame that shows it.
void pagePainted().then(startApp);
