import { api } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';

/** POST /api/logout, then forget the stored login whatever the server answered (spec §4). */
export async function logout(): Promise<void> {
  try {
    await api('POST', '/api/logout');
  } catch {
    // Signed out here either way: an unreachable server must not keep the browser signed in.
  } finally {
    authStore.clear();
  }
}

/**
 * Ends a session that was never stored: a login that succeeded for an account which may not use this
 * admin area must not leave a live token behind on the server.
 */
export async function revokeToken(token: string): Promise<void> {
  try {
    await fetch('/api/logout', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  } catch {
    // The session still expires on its own (idle and absolute limits).
  }
}
