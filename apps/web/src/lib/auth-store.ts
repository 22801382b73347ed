import type { User } from '@opp/contracts';

/*
 * Where spec §3 says the login lives: accessToken and UserId in local storage, the user in session
 * storage. Components subscribe to changes (login, logout, a 401 that ends the session).
 */
const TOKEN = 'accessToken';
const USER_ID = 'UserId';
const USER = 'user';

type Listener = () => void;
const listeners = new Set<Listener>();
/** True from a session's end by a 401 (idle limit, revoked) until the next sign-in; false after a logout. */
let expired = false;
const emit = () => listeners.forEach((l) => l());

function read<T>(storage: Storage, key: string): T | null {
  try {
    const v = storage.getItem(key);
    return v ? (JSON.parse(v) as T) : null;
  } catch {
    return null;
  }
}

export const authStore = {
  getToken: (): string | null => read<string>(localStorage, TOKEN),
  getUserId: (): number | null => read<number>(localStorage, USER_ID),
  getUser: (): User | null => read<User>(sessionStorage, USER),
  set(user: User, token: string) {
    expired = false;
    localStorage.setItem(TOKEN, JSON.stringify(token));
    localStorage.setItem(USER_ID, JSON.stringify(user.UserId));
    sessionStorage.setItem(USER, JSON.stringify(user));
    emit();
  },
  setUser(user: User) {
    sessionStorage.setItem(USER, JSON.stringify(user));
    emit();
  },
  /**
   * Logout or an invalid token: the stored values become null and the current user is cleared.
   * `expired` says the server ended the session (not the person), so the login page can say so.
   */
  clear(options: { expired?: boolean } = {}) {
    expired = options.expired ?? false;
    localStorage.setItem(TOKEN, 'null');
    localStorage.setItem(USER_ID, 'null');
    sessionStorage.removeItem(USER);
    emit();
  },
  /** Whether the last sign-out was the session expiring (see `clear`). */
  sessionExpired: (): boolean => expired,
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
