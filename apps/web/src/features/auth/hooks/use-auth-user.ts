import { useMemo, useSyncExternalStore } from 'react';
import type { User } from '@opp/contracts';
import { authStore } from '@/lib/auth-store';

// The snapshot is text, so React re-renders only when the stored login really changed.
const snapshot = () => `${authStore.getToken() ?? ''}\u0000${JSON.stringify(authStore.getUser())}`;

/** The signed-in user, or null; follows login, logout and a 401 that ends the session. */
export function useAuthUser(): User | null {
  const key = useSyncExternalStore(authStore.subscribe, snapshot, snapshot);
  return useMemo(() => (key.startsWith('\u0000') ? null : authStore.getUser()), [key]);
}
