/*
 * Giving the browser the main thread back while the app starts: a phone runs the app's scripts at a
 * quarter of a desktop's speed, and one long stretch of script delays both the first paint and the
 * answer to the first tap (spec: WCAG, Lighthouse's Total Blocking Time).
 */

/** Resolves in a new task, after anything the browser has queued (input, a frame). */
export function yieldToMain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Resolves once the browser has painted the page as it stands. A hidden tab paints nothing (it gets no
 * animation frames), so there it resolves at once.
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState !== 'visible') return resolve();
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}
