import { canAdministerClient, type User } from '@opp/contracts';
import { paths } from '@/config/paths';
import { logout } from '@/features/auth/api/logout';
import { LoginPage } from '@/features/auth/components/login-page';
import { useAuthUser } from '@/features/auth/hooks/use-auth-user';
import { authStore } from '@/lib/auth-store';
import { useAdminClient } from '../api/admin-client';
import { AdminLayout } from './admin-layout';

const asActor = (u: User) => ({ id: u.UserId, roleId: u.RoleID, manages: u.Manages });

/**
 * Who is signed in, the town of /{state}/{city}/admin/…, and whether that person may administer it
 * (RoleID 1 may administer every town). Every page of a town's admin area starts here.
 */
export function useTownAdmin(state: string, city: string) {
  const user = useAuthUser();
  const client = useAdminClient(state, city);
  const town = client.data;
  const allowed = Boolean(user && town && canAdministerClient(asActor(user), town.ClientID));
  return {
    user,
    client,
    town,
    allowed,
    townLabel: town ? `${town.City}, ${town.StateProvince}` : `${city}, ${state}`,
    searchHref: paths.search.getHref(town?.StateProvince ?? state, town?.City ?? city),
    logout: () => void logout(),
  };
}

export type TownAdmin = ReturnType<typeof useTownAdmin>;

/**
 * What a town admin page shows until it may show itself: the town loading or not found, then the
 * town's login page for anyone not signed in or not allowed there (signing in brings the page back).
 */
export function TownAdminGate({ access }: { access: TownAdmin }) {
  const { town, client, townLabel, searchHref } = access;
  return (
    <AdminLayout username={null} onLogout={access.logout} searchHref={searchHref}>
      {town ? (
        <LoginPage
          heading={townLabel}
          canUse={(u) => canAdministerClient(asActor(u), town.ClientID)}
          returnHref={searchHref}
          notice={
            authStore.sessionExpired()
              ? 'Your session expired; sign in to save. What you typed is kept.'
              : undefined
          }
        />
      ) : (
        <main id="main-content" tabIndex={-1} className="opp-admin-main">
          <p role="status">{client.isError ? 'Unable to find municipality' : 'Loading…'}</p>
        </main>
      )}
    </AdminLayout>
  );
}
