/*
 * Giving the browser the main thread back while the app starts: a phone runs the app's scripts at a
 * quarter of a desktop's speed, and one long stretch of script delays both the first paint and the
 * answer to the first tap (spec: WCAG, Lighthouse's Total Blocking Time).
 */

/** Resolves in a new task, after anything the browser has queued (input, a frame). */
export function yieldToMain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
