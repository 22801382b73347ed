import { Navigate, useLocation, useParams } from 'react-router';
import { canAdministerClient, type User } from '@opp/contracts';
import { paths } from '@/config/paths';
import { useEnrolmentGate } from '@/features/account-security/hooks/use-enrolment-gate';
import { securityPaths } from '@/features/account-security/paths';
import { useVerifyStoredLogin } from '@/features/auth/api/get-current-user';
import { logout } from '@/features/auth/api/logout';
import { LoginPage } from '@/features/auth/components/login-page';
import { useAuthUser } from '@/features/auth/hooks/use-auth-user';
import { useAdminClient } from '@/features/municipality-admin/api/admin-client';
import { AdminLayout } from '@/features/municipality-admin/components/admin-layout';
import { MunicipalityAdmin } from '@/features/municipality-admin/components/municipality-admin';
import { useAlertRedirect } from '@/hooks/use-alert-redirect';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { authStore } from '@/lib/auth-store';

const asActor = (u: User) => ({ id: u.UserId, roleId: u.RoleID, manages: u.Manages });

/**
 * Spec §2 /{state}/{city}/admin: the login page while nobody is signed in or the signed-in user may not
 * administer this town (RoleID 1 may administer every town), otherwise the municipality admin screen.
 * An admin who must turn on two-factor sign-in first is sent to do so, and comes back here afterwards.
 */
export function Component() {
  const { state = '', city = '' } = useParams();
  const location = useLocation();
  const user = useAuthUser();
  useVerifyStoredLogin(user ? authStore.getUserId() : null);
  const client = useAdminClient(state, city);
  useAlertRedirect(client.isError ? 'Unable to find municipality' : null);

  const town = client.data;
  const allowed = Boolean(user && town && canAdministerClient(asActor(user), town.ClientID));
  const townLabel = town ? `${town.City}, ${town.StateProvince}` : `${city}, ${state}`;
  useDocumentTitle(allowed ? `Admin: ${townLabel}` : `Log in: ${townLabel}`);
  const searchHref = paths.search.getHref(town?.StateProvince ?? state, town?.City ?? city);
  const gate = useEnrolmentGate(allowed ? user : null);

  // Signed out, the same URL shows the login page again.
  const handleLogout = () => void logout();

  if (!town) {
    return (
      <AdminLayout username={null} onLogout={handleLogout} searchHref={searchHref}>
        <main id="main-content" tabIndex={-1} className="opp-admin-main">
          <p role="status">{client.isError ? 'Unable to find municipality' : 'Loading…'}</p>
        </main>
      </AdminLayout>
    );
  }

  if (!user || !allowed) {
    return (
      <AdminLayout username={null} onLogout={handleLogout} searchHref={searchHref}>
        <LoginPage
          heading={townLabel}
          canUse={(u) => canAdministerClient(asActor(u), town.ClientID)}
          returnHref={searchHref}
        />
      </AdminLayout>
    );
  }

  if (gate === 'enrol')
    return (
      <Navigate
        to={securityPaths.municipality.getHref(state, city, location.pathname + location.search)}
        replace
      />
    );

  return (
    <AdminLayout
      username={user.Username}
      onLogout={handleLogout}
      searchHref={searchHref}
      securityHref={securityPaths.municipality.getHref(state, city)}
    >
      <main id="main-content" tabIndex={-1} className="opp-admin-main">
        {gate === 'checking' ? <p role="status">Loading…</p> : <MunicipalityAdmin client={town} me={user} />}
      </main>
    </AdminLayout>
  );
}
