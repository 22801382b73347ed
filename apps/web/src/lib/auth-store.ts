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
    localStorage.setItem(TOKEN, JSON.stringify(token));
    localStorage.setItem(USER_ID, JSON.stringify(user.UserId));
    sessionStorage.setItem(USER, JSON.stringify(user));
    emit();
  },
  setUser(user: User) {
    sessionStorage.setItem(USER, JSON.stringify(user));
    emit();
  },
  /** Logout or an invalid token: the stored values become null and the current user is cleared. */
  clear() {
    localStorage.setItem(TOKEN, 'null');
    localStorage.setItem(USER_ID, 'null');
    sessionStorage.removeItem(USER);
    emit();
  },
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
