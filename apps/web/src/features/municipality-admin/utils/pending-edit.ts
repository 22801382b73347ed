/*
 * An edit a town admin was making when their session expired (the 60-minute idle limit): kept in
 * memory while they sign in again on the same page, then given back to the form, which saves it at
 * once if Save was what found the session gone. Memory only: a reload starts clean, and a file chosen
 * for the banner cannot be written to storage anyway.
 */

interface Kept {
  value: unknown;
  /** Save was pressed: save again as soon as the form is back. */
  save: boolean;
}

const kept = new Map<string, Kept>();

export const pendingEdits = {
  keep(key: string, value: unknown, save: boolean): void {
    kept.set(key, { value, save });
  },
  /** The kept edit for `key`, removed as it is taken. */
  take<T>(key: string): { value: T; save: boolean } | null {
    const k = kept.get(key);
    kept.delete(key);
    return k ? { value: k.value as T, save: k.save } : null;
  },
};
