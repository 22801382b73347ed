import { useSearchParams } from 'react-router';
import { Role, type User } from '@opp/contracts';
import { AccountSecurity } from '@/features/account-security/components/account-security';
import { safeNext } from '@/features/account-security/utils/safe-next';
import { LoginPage } from '@/features/auth/components/login-page';
import { useAuthUser } from '@/features/auth/hooks/use-auth-user';
import { ConsoleFrame } from '@/features/provider-console/components/console-frame';
import { useProviderName } from '@/features/provider-console/utils/provider-name';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';

const isProvider = (u: User) => u.RoleID === Role.Provider;

/** /admin/security: the provider admin's account security (two-factor sign-in) under the console header. */
export function Component() {
  const user = useAuthUser();
  const providerName = useProviderName();
  const [params] = useSearchParams();
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

  return (
    <ConsoleFrame providerName={providerName} username={user.Username}>
      <AccountSecurity
        user={user}
        issuer={providerName}
        next={safeNext(params.get('next'))}
        backHref={paths.providerAdmin.getHref()}
        backLabel="Back to the provider console"
      />
    </ConsoleFrame>
  );
}
