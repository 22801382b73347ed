import { Navigate, useLocation, useParams } from 'react-router';
import { useEnrolmentGate } from '@/features/account-security/hooks/use-enrolment-gate';
import { securityPaths } from '@/features/account-security/paths';
import { useVerifyStoredLogin } from '@/features/auth/api/get-current-user';
import { AdminLayout } from '@/features/municipality-admin/components/admin-layout';
import { MunicipalityAdmin } from '@/features/municipality-admin/components/municipality-admin';
import { TownAdminGate, useTownAdmin } from '@/features/municipality-admin/components/town-admin-gate';
import { useAlertRedirect } from '@/hooks/use-alert-redirect';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { authStore } from '@/lib/auth-store';

/**
 * Spec §2 /{state}/{city}/admin: the login page while nobody is signed in or the signed-in user may not
 * administer this town (RoleID 1 may administer every town), otherwise the municipality admin screen.
 * An admin who must turn on two-factor sign-in first is sent to do so, and comes back here afterwards.
 */
export function Component() {
  const { state = '', city = '' } = useParams();
  const location = useLocation();
  const access = useTownAdmin(state, city);
  const { user, town, allowed, townLabel, searchHref } = access;
  useVerifyStoredLogin(user ? authStore.getUserId() : null);
  useAlertRedirect(access.client.isError ? 'Unable to find municipality' : null);
  useDocumentTitle(allowed ? `Admin: ${townLabel}` : `Log in: ${townLabel}`);
  const gate = useEnrolmentGate(allowed ? user : null);

  // Signed out, the same URL shows the login page again.
  if (!allowed || !user || !town) return <TownAdminGate access={access} />;

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
      onLogout={access.logout}
      searchHref={searchHref}
      securityHref={securityPaths.municipality.getHref(state, city)}
    >
      <main id="main-content" tabIndex={-1} className="opp-admin-main">
        {gate === 'checking' ? <p role="status">Loading…</p> : <MunicipalityAdmin client={town} me={user} />}
      </main>
    </AdminLayout>
  );
}
