import { useParams, useSearchParams } from 'react-router';
import { canAdministerClient, type User } from '@opp/contracts';
import { paths } from '@/config/paths';
import { AccountSecurity } from '@/features/account-security/components/account-security';
import { safeNext } from '@/features/account-security/utils/safe-next';
import { logout } from '@/features/auth/api/logout';
import { LoginPage } from '@/features/auth/components/login-page';
import { useAuthUser } from '@/features/auth/hooks/use-auth-user';
import { useAdminClient } from '@/features/municipality-admin/api/admin-client';
import { AdminLayout } from '@/features/municipality-admin/components/admin-layout';
import { useDocumentTitle } from '@/hooks/use-document-title';

const asActor = (u: User) => ({ id: u.UserId, roleId: u.RoleID, manages: u.Manages });

/**
 * /{state}/{city}/admin/security: account security (two-factor sign-in) for whoever may administer
 * this town, under the town's admin header; the town's login page for anyone else.
 */
export function Component() {
  const { state = '', city = '' } = useParams();
  const [params] = useSearchParams();
  const user = useAuthUser();
  const client = useAdminClient(state, city);
  const town = client.data;
  const allowed = Boolean(user && town && canAdministerClient(asActor(user), town.ClientID));
  const townLabel = town ? `${town.City}, ${town.StateProvince}` : `${city}, ${state}`;
  useDocumentTitle(allowed ? `Account security: ${townLabel}` : `Log in: ${townLabel}`);
  const searchHref = paths.search.getHref(town?.StateProvince ?? state, town?.City ?? city);
  const handleLogout = () => void logout();

  if (!town)
    return (
      <AdminLayout username={null} onLogout={handleLogout} searchHref={searchHref}>
        <main id="main-content" tabIndex={-1} className="opp-admin-main">
          <p role="status">{client.isError ? 'Unable to find municipality' : 'Loading…'}</p>
        </main>
      </AdminLayout>
    );

  if (!user || !allowed)
    return (
      <AdminLayout username={null} onLogout={handleLogout} searchHref={searchHref}>
        <LoginPage
          heading={townLabel}
          canUse={(u) => canAdministerClient(asActor(u), town.ClientID)}
          returnHref={searchHref}
        />
      </AdminLayout>
    );

  return (
    <AdminLayout username={user.Username} onLogout={handleLogout} searchHref={searchHref}>
      <main id="main-content" tabIndex={-1} className="opp-admin-main">
        <AccountSecurity
          user={user}
          issuer="Online Property Portal"
          next={safeNext(params.get('next'))}
          backHref={paths.municipalityAdmin.getHref(town.StateProvince, town.City)}
          backLabel={`Back to ${townLabel} admin`}
        />
      </main>
    </AdminLayout>
  );
}
