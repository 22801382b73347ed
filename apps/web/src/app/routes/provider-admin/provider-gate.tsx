import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Role, type User } from '@opp/contracts';
import { useVerifyStoredLogin } from '@/features/auth/api/get-current-user';
import { LoginPage } from '@/features/auth/components/login-page';
import { useAuthUser } from '@/features/auth/hooks/use-auth-user';
import { useEnrolmentGate } from '@/features/account-security/hooks/use-enrolment-gate';
import { securityPaths } from '@/features/account-security/paths';
import { useProviderName } from '@/features/provider-console/utils/provider-name';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';

const isProvider = (u: User) => u.RoleID === Role.Provider;

/** Sets the title of the screen it is rendered in (the gate's own screens; a page sets its own). */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return children;
}

/**
 * Every provider console page (spec §2): the page for RoleID 1, the login page in provider mode for
 * anyone else. Signing out, or any 401 that ends the session, brings the login page back, on the same
 * address. A provider admin who must turn on two-factor sign-in first is sent to do so, and comes back
 * to the page afterwards.
 */
export function ProviderGate({
  children,
}: {
  /** The page, given the signed-in provider admin and the provider's name; it sets its own title. */
  children: (user: User, providerName: string) => ReactNode;
}) {
  const user = useAuthUser();
  const location = useLocation();
  const providerName = useProviderName();
  const allowed = user !== null && isProvider(user);
  const gate = useEnrolmentGate(allowed ? user : null);
  // Spec §7: the console reloads the signed-in user at start (a revoked session signs out here).
  useVerifyStoredLogin(allowed ? user.UserId : null);

  if (!allowed)
    return (
      <Titled title={`${providerName} Admin Login`}>
        <LoginPage
          heading={`${providerName} Admin Login`}
          canUse={isProvider}
          returnHref={paths.home.getHref()}
        />
      </Titled>
    );
  if (gate === 'enrol')
    return <Navigate to={securityPaths.provider.getHref(location.pathname + location.search)} replace />;
  if (gate === 'checking')
    return (
      <main id="main-content" tabIndex={-1} className="grid-container padding-y-4" aria-busy="true">
        <p role="status">Loading…</p>
      </main>
    );
  return children(user, providerName);
}
