import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Role, type User } from '@opp/contracts';
import { AccountSecurity } from '@/features/account-security/components/account-security';
import { safeNext } from '@/features/account-security/utils/safe-next';
import { logout } from '@/features/auth/api/logout';
import { LoginPage } from '@/features/auth/components/login-page';
import { useAuthUser } from '@/features/auth/hooks/use-auth-user';
import { ConsoleHeader } from '@/features/provider-console/components/console-header';
import { useProviderName } from '@/features/provider-console/utils/provider-name';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';
import '@/features/provider-console/provider-console.css';
import { SkipNav } from '@/components/ui/skip-nav';

const isProvider = (u: User) => u.RoleID === Role.Provider;

/** /admin/security: the provider admin's account security (two-factor sign-in) under the console header. */
export function Component() {
  const user = useAuthUser();
  const providerName = useProviderName();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [loggingOut, setLoggingOut] = useState(false);
  const allowed = user !== null && isProvider(user);
  useDocumentTitle(allowed ? `Account security: ${providerName}` : `${providerName} Admin Login`);

  if (!allowed)
    return (
      <LoginPage
        heading={`${providerName} Admin Login`}
        canUse={isProvider}
        returnHref={paths.home.getHref()}
      />
    );

  const handleLogout = async () => {
    setLoggingOut(true);
    await logout();
    // Nothing of this account stays in memory for whoever uses this browser next.
    queryClient.removeQueries({ queryKey: ['two-factor'] });
    setLoggingOut(false);
  };

  return (
    <div className="opp-console">
      <SkipNav />
      <ConsoleHeader
        providerName={providerName}
        username={user.Username}
        loggingOut={loggingOut}
        onLogout={() => void handleLogout()}
      />
      <main id="main-content" tabIndex={-1} className="opp-console__main grid-container">
        <AccountSecurity
          user={user}
          issuer={providerName}
          next={safeNext(params.get('next'))}
          backHref={paths.providerAdmin.getHref()}
          backLabel="Back to the provider console"
        />
      </main>
    </div>
  );
}
