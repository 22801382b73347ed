import { Navigate, useLocation } from 'react-router';
import { Role, type User } from '@opp/contracts';
import { useVerifyStoredLogin } from '@/features/auth/api/get-current-user';
import { LoginPage } from '@/features/auth/components/login-page';
import { useAuthUser } from '@/features/auth/hooks/use-auth-user';
import { useEnrolmentGate } from '@/features/account-security/hooks/use-enrolment-gate';
import { securityPaths } from '@/features/account-security/paths';
import { ProviderConsole } from '@/features/provider-console/components/provider-console';
import { useProviderName } from '@/features/provider-console/utils/provider-name';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';

const isProvider = (u: User) => u.RoleID === Role.Provider;

/**
 * /admin (spec §2): the provider console for RoleID 1, the login page in provider mode for anyone else.
 * Signing out, or any 401 that ends the session, brings the login page back. A provider admin who must
 * turn on two-factor sign-in first is sent to do so, and comes back here afterwards.
 */
export function Component() {
  const user = useAuthUser();
  const location = useLocation();
  const providerName = useProviderName();
  const allowed = user !== null && isProvider(user);
  const gate = useEnrolmentGate(allowed ? user : null);
  // Spec §7: the console reloads the signed-in user at start (a revoked session signs out here).
  useVerifyStoredLogin(allowed ? user.UserId : null);
  useDocumentTitle(allowed ? `${providerName} Console` : `${providerName} Admin Login`);

  if (!allowed)
    return (
      <LoginPage
        heading={`${providerName} Admin Login`}
        canUse={isProvider}
        returnHref={paths.home.getHref()}
      />
    );
  if (gate === 'enrol')
    return <Navigate to={securityPaths.provider.getHref(location.pathname + location.search)} replace />;
  if (gate === 'checking')
    return (
      <main id="main-content" tabIndex={-1} className="grid-container padding-y-4" aria-busy="true">
        <p role="status">Loading…</p>
      </main>
    );
  return (
    <ProviderConsole
      user={user}
      providerName={providerName}
      securityHref={securityPaths.provider.getHref()}
    />
  );
}
