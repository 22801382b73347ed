/*
 * Browser storage with an expiry (spec §4, §9): a saved value lives 7 days after its last change;
 * reading an expired or unreadable value deletes it. Storage can be unavailable (private modes, quota,
 * disabled cookies); then values are simply not kept, and the portal still works.
 */

export const STORAGE_TTL_MS = 604_800_000;

interface Stored<T> {
  value: T;
  expiresAt: number;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function saveWithExpiry<T>(key: string, value: T, now = Date.now(), ttlMs = STORAGE_TTL_MS): void {
  const entry: Stored<T> = { value, expiresAt: now + ttlMs };
  try {
    storage()?.setItem(key, JSON.stringify(entry));
  } catch {
    // Quota exceeded or storage disabled: the state is just not remembered.
  }
}

/** The value if it is present and unexpired; otherwise null (and any stale entry is removed). */
export function loadWithExpiry<T>(key: string, now = Date.now()): T | null {
  const s = storage();
  let raw: string | null = null;
  try {
    raw = s?.getItem(key) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const entry = JSON.parse(raw) as Partial<Stored<T>> | null;
    if (entry && typeof entry.expiresAt === 'number' && entry.expiresAt > now && 'value' in entry) {
      return entry.value as T;
    }
  } catch {
    // Unreadable: treated like an expired entry.
  }
  removeStored(key);
  return null;
}

export function removeStored(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // Nothing to do when storage is unavailable.
  }
}
