import type { User } from '@opp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';
import { accountKeys } from './account-data';

/** GET /api/user/{UserId}: the signed-in account as the server knows it now. */
export async function getCurrentUser(userId: number, signal?: AbortSignal): Promise<User> {
  const user = await api<User>('GET', `/api/user/${userId}`, { signal });
  // A role or client changed elsewhere shows at once; a 401 has already cleared the stored login.
  authStore.setUser(user);
  return user;
}

/**
 * Re-checks the stored login once per page visit, so an expired or revoked token logs the user out
 * cleanly (the 401 clears the store) instead of failing on the first save.
 */
export function useVerifyStoredLogin(userId: number | null) {
  return useQuery({
    queryKey: [...accountKeys.all, 'current-user', userId],
    queryFn: ({ signal }) => getCurrentUser(userId!, signal),
    enabled: userId !== null,
    staleTime: Infinity,
    retry: false,
  });
}
