import { ProviderConsole } from '@/features/provider-console/components/provider-console';
import { securityPaths } from '@/features/account-security/paths';
import { ProviderGate } from './provider-gate';

/** /admin (spec §2): the provider console's client list and administrators. */
export function Component() {
  return (
    <ProviderGate>
      {(user, providerName) => (
        <ProviderConsole
          user={user}
          providerName={providerName}
          securityHref={securityPaths.provider.getHref()}
        />
      )}
    </ProviderGate>
  );
}
