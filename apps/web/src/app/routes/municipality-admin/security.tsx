import { useParams, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { AccountSecurity } from '@/features/account-security/components/account-security';
import { safeNext } from '@/features/account-security/utils/safe-next';
import { AdminLayout } from '@/features/municipality-admin/components/admin-layout';
import { TownAdminGate, useTownAdmin } from '@/features/municipality-admin/components/town-admin-gate';
import { useDocumentTitle } from '@/hooks/use-document-title';

/**
 * /{state}/{city}/admin/security: account security (two-factor sign-in) for whoever may administer
 * this town, under the town's admin header; the town's login page for anyone else.
 */
export function Component() {
  const { state = '', city = '' } = useParams();
  const [params] = useSearchParams();
  const access = useTownAdmin(state, city);
  const { user, town, allowed, townLabel, searchHref } = access;
  useDocumentTitle(allowed ? `Account security: ${townLabel}` : `Log in: ${townLabel}`);

  if (!allowed || !user || !town) return <TownAdminGate access={access} />;

  return (
    <AdminLayout username={user.Username} onLogout={access.logout} searchHref={searchHref}>
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
