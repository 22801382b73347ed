import { useDeferredValue, useEffect } from 'react';
import { useParams } from 'react-router';
import { PublicLayout } from '@/components/layouts/public-layout';
import { ComparablesSection } from '@/features/comparables/components/lazy-comparables-panel';
import { paths } from '@/config/paths';
import { useMunicipality } from '@/features/municipalities/api/get-municipality';
import { TownHeading, TownPage } from '@/features/municipalities/components/town-heading';
import { PropertyParcelsSection } from '@/features/parcels/components/lazy-property-parcels';
import { useProperty } from '@/features/properties/api/get-property';
import { payNowHref, PropertyBottomBar } from '@/features/properties/components/property-bottom-bar';
import { PropertyHeader } from '@/features/properties/components/property-header';
import { totalDue } from '@/features/properties/utils/total-due';
import { PrintStamp } from '@/components/ui/print-stamp';
import {
  AdditionalAssessmentsSection,
  AssessmentSection,
  BuildingSection,
  LandSection,
  PropertyInfoSection,
  SalesSection,
  TaxDetailsSection,
  ValuationHistorySection,
} from '@/features/properties/components/property-sections';
import { useResultPosition } from '@/features/search/hooks/use-result-position';
import { useAlertRedirect } from '@/hooks/use-alert-redirect';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { formatLocation } from '@/utils/format';

/** Spec §2 Property detail: loads the client, then the property, then shows it. */
export function Component() {
  const { state = '', city = '', account = '' } = useParams();
  const municipality = useMunicipality(state, city);
  const client = municipality.data;
  const property = useProperty(account, state, city, municipality.isSuccess);
  // Drawn in a transition, in slices a phone can answer a tap between: the record arrives as a
  // synchronous update (react-query's store), and the whole record at once is a long task.
  const p = useDeferredValue(property.data);

  useAlertRedirect(
    municipality.isError
      ? 'Unable to find property, invalid Client ID.'
      : // The record may be requested before the town is known (prefetch-public-page.ts): its failure
        // means "no such property" only once the town is found.
        municipality.isSuccess && property.isError
        ? 'Unable to find property, invalid property.'
        : null,
  );
  useDocumentTitle(p ? formatLocation(p) || `Account ${p.Account}` : 'Property');

  // Spec §4: Previous/Next only when the stored results are unexpired and hold this record.
  const position = useResultPosition(state, city, account, client?.ClientID);

  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [account]);

  return (
    <PublicLayout owner={client?.Description} town={{ state, city }}>
      <TownPage record>
        {client ? <TownHeading client={client} as="p" /> : null}
        {p && client ? (
          <>
            <PropertyHeader p={p} dates={client} />
            <AssessmentSection p={p} />
            <SalesSection p={p} />
            <PropertyInfoSection p={p} />
            <LandSection p={p} />
            <BuildingSection p={p} />
            <AdditionalAssessmentsSection p={p} />
            <TaxDetailsSection p={p} />
            <ValuationHistorySection p={p} />
            {client.HasParcelMap ? (
              <PropertyParcelsSection
                clientId={client.ClientID}
                account={p.Account}
                hrefFor={(a) => paths.property.getHref(state, city, a)}
              />
            ) : null}
            {client.HasParcelMap ? (
              <ComparablesSection
                clientId={client.ClientID}
                account={p.Account}
                hrefFor={(a) => paths.property.getHref(state, city, a)}
                dates={client}
              />
            ) : null}
            <PrintStamp dates={client} />
            <PropertyBottomBar
              searchHref={paths.search.getHref(state, city)}
              position={position}
              payHref={payNowHref(client, p.TotalTaxOutstanding, p.Account)}
              due={totalDue(p)?.amount}
            />
          </>
        ) : municipality.isError || property.isError ? null : (
          <p role="status" className="opp-loading">
            Loading property record…
          </p>
        )}
      </TownPage>
    </PublicLayout>
  );
}
