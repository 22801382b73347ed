/** Spec §9: a lazy-loaded part that has not arrived in 120 s fails (and shows the crash screen). */
export const LAZY_TIMEOUT_MS = 120_000;

export function lazyRoute<T extends object>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('This page took too long to load. Check your connection and try again.')),
        LAZY_TIMEOUT_MS,
      );
      load().then(
        (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
}
