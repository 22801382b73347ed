import { Role, type User } from '@opp/contracts';
import { useVerifyStoredLogin } from '@/features/auth/api/get-current-user';
import { LoginPage } from '@/features/auth/components/login-page';
import { useAuthUser } from '@/features/auth/hooks/use-auth-user';
import { ProviderConsole } from '@/features/provider-console/components/provider-console';
import { useProviderName } from '@/features/provider-console/utils/provider-name';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';

const isProvider = (u: User) => u.RoleID === Role.Provider;

/**
 * /admin (spec §2): the provider console for RoleID 1, the login page in provider mode for anyone else.
 * Signing out, or any 401 that ends the session, brings the login page back.
 */
export function Component() {
  const user = useAuthUser();
  const providerName = useProviderName();
  const allowed = user !== null && isProvider(user);
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
  return <ProviderConsole user={user} providerName={providerName} />;
}
