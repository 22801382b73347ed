import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@opp/contracts';
import { authStore } from '@/lib/auth-store';
import { twoFactorKeys } from '@/features/account-security/api/query-keys';
import { providerKeys } from '@/features/provider-console/api/query-keys';
import { usersKeys } from '@/features/users/api/query-keys';
import { forgetAccountDataOnSignOut } from './account-data';

const user = (UserId: number) => ({ UserId, Username: `user${UserId}`, RoleID: 1 }) as User;

describe('account answers across sign-ins in one tab', () => {
  let stop = () => {};
  afterEach(() => {
    stop();
    authStore.clear();
  });

  function cacheWithAnswers() {
    authStore.set(user(1), 'token-1');
    const queryClient = new QueryClient();
    stop = forgetAccountDataOnSignOut(queryClient);
    queryClient.setQueryData(twoFactorKeys.status(1), { enabled: true, recoveryCodesLeft: 10 });
    queryClient.setQueryData(providerKeys.clients(), [{ ClientID: 7 }]);
    queryClient.setQueryData(usersKeys.byClient(7), [{ UserId: 3 }]);
    queryClient.setQueryData(['municipality', 'maine', 'testville'], { ClientID: 7 });
    return queryClient;
  }

  const cached = (queryClient: QueryClient) =>
    queryClient
      .getQueryCache()
      .getAll()
      .map((q) => q.queryKey[0]);

  it('a sign-out forgets what the account was shown and keeps the public answers', () => {
    const queryClient = cacheWithAnswers();
    authStore.clear();
    expect(cached(queryClient)).toEqual(['municipality']);
  });

  it('a session ended by the server forgets them too', () => {
    const queryClient = cacheWithAnswers();
    authStore.clear({ expired: true });
    expect(cached(queryClient)).toEqual(['municipality']);
  });

  it('someone else signing in forgets them', () => {
    const queryClient = cacheWithAnswers();
    authStore.set(user(2), 'token-2');
    expect(cached(queryClient)).toEqual(['municipality']);
  });

  it('the same account refreshing its record keeps them', () => {
    const queryClient = cacheWithAnswers();
    authStore.setUser({ ...user(1), Username: 'renamed' });
    expect(cached(queryClient)).toHaveLength(4);
  });
});
