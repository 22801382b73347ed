import type { QueryClient } from '@tanstack/react-query';
import { authStore } from '@/lib/auth-store';

/**
 * The root of every cached answer that belongs to the signed-in account rather than to the public: its
 * own record, its security status, the console's lists, a town's admins. Public answers (towns,
 * searches, records) are the same for everyone and stay cached across sign-ins.
 */
export const accountKeys = { all: ['account'] as const };

/**
 * Forgets every account answer as soon as the signed-in account changes: a sign-out from either admin
 * area, a 401 that ends the session, or someone else signing in. Without this, whoever signs in next in
 * the same tab first sees the previous account's answers until the server's arrive.
 */
export function forgetAccountDataOnSignOut(queryClient: QueryClient): () => void {
  let userId = authStore.getUserId();
  return authStore.subscribe(() => {
    const now = authStore.getUserId();
    if (now !== userId) queryClient.removeQueries({ queryKey: accountKeys.all });
    userId = now;
  });
}
