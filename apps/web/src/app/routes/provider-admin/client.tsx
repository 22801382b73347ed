import { useParams } from 'react-router';
import { ClientPage } from '@/features/provider-console/components/client-page';
import { securityPaths } from '@/features/account-security/paths';
import { ProviderGate } from './provider-gate';

/** /admin/clients/:clientId/:section? (issue 48): one client's page in the provider console. */
export function Component() {
  const { clientId, section } = useParams();
  return (
    <ProviderGate>
      {(user, providerName) => (
        <ClientPage
          clientId={Number(clientId)}
          section={section}
          user={user}
          providerName={providerName}
          securityHref={securityPaths.provider.getHref()}
        />
      )}
    </ProviderGate>
  );
}
