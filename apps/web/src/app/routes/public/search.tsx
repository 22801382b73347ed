import { useParams } from 'react-router';
import { PublicLayout } from '@/components/layouts/public-layout';
import { PrintStamp } from '@/components/ui/print-stamp';
import { ContactInfoButton } from '@/features/contacts-public/components/contact-info';
import { useMunicipality } from '@/features/municipalities/api/get-municipality';
import { TownHeading, TownPage, townName } from '@/features/municipalities/components/town-heading';
import { ResultsSkeleton } from '@/features/search/components/results-skeleton';
import { SearchScreen } from '@/features/search/components/search-screen';
import { useAlertRedirect } from '@/hooks/use-alert-redirect';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** Spec §2 Search results, reached by /{state}/{city}/search and /{state}/{city}. */
export function Component() {
  const { state = '', city = '' } = useParams();
  const municipality = useMunicipality(state, city);
  const client = municipality.data;
  useAlertRedirect(municipality.isError ? 'Unable to find municipality' : null);
  useDocumentTitle(client ? `Search ${townName(client)}` : 'Search');

  return (
    <PublicLayout owner={client?.Description} town={{ state, city }}>
      <TownPage>
        {client ? (
          <>
            <TownHeading client={client}>
              <ContactInfoButton clientId={client.ClientID} townName={townName(client)} />
            </TownHeading>
            {/* Keyed by town: nothing of one town's search leaks into another's. */}
            <SearchScreen
              key={client.ClientID}
              clientId={client.ClientID}
              state={state}
              city={city}
              hasParcelMap={client.HasParcelMap === true}
            />
            {/* A printout of the results says where and when it came from, as a record's does. */}
            <PrintStamp dates={client} />
          </>
        ) : municipality.isError ? null : (
          <>
            <p className="opp-visually-hidden" role="status">
              Loading…
            </p>
            <ResultsSkeleton />
          </>
        )}
      </TownPage>
    </PublicLayout>
  );
}
