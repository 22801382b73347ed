import { Link, Navigate } from 'react-router';
import type { PublicClient, User } from '@opp/contracts';
import { Alert } from '@/components/ui/alert';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { formatCount, formatDate } from '@/utils/format';
import { useClients } from '../api/get-clients';
import { CLIENT_SECTIONS, clientSection, type ClientSection } from '../utils/client-sections';
import { ClientContacts } from './client-contacts';
import { ClientDetails } from './client-details';
import { ConsoleFrame } from './console-frame';
import { ImportHistory } from './import-history';
import { ParcelLayerUpload } from './parcel-layer-upload';
import { RollPublisher } from './roll-publisher';

export interface ClientPageProps {
  clientId: number;
  /** The tab the address names (the first when none). */
  section: string | undefined;
  user: User;
  providerName: string;
  securityHref?: string;
}

/**
 * Spec §2 "Settings for: {city}" as a page of its own (issue 48) rather than a modal: the client's
 * details, contacts, roll publishing with its history, and parcel layer, each on a tab whose address can
 * be shared, bookmarked and gone Back to, with the page's full width for the preview and history tables.
 */
export function ClientPage({ clientId, section, user, providerName, securityHref }: ClientPageProps) {
  const clients = useClients();
  // The list is what the console has already read: a published roll's new count shows here too.
  const client = clients.data?.find((c) => c.ClientID === clientId) ?? null;
  const current = clientSection(section);
  useDocumentTitle(
    client ? `${client.City}: ${providerName} Console` : `Client ${clientId}: ${providerName} Console`,
  );

  if (current === undefined) return <Navigate to={paths.providerClient.getHref(clientId)} replace />;
  return (
    <ConsoleFrame providerName={providerName} username={user.Username} securityHref={securityHref}>
      {/* The way up to the list (the page's own name is its heading). */}
      <nav aria-label="Breadcrumbs" className="margin-top-2">
        <Link to={paths.providerAdmin.getHref()}>
          <span aria-hidden="true">‹ </span>Provider console
        </Link>
      </nav>
      {client ? (
        <ClientSections client={client} current={current} />
      ) : clients.isPending ? (
        <>
          <h1 className="margin-top-2">Settings</h1>
          <p role="status">Loading the client…</p>
        </>
      ) : (
        <>
          <h1 className="margin-top-2">No such client</h1>
          {clients.isError ? (
            <Alert
              type="error"
              role="alert"
              text={<>The clients could not be loaded. {clients.error.message}</>}
            />
          ) : (
            <p>
              There is no client with ID {clientId}: it may have been deleted.{' '}
              <Link to={paths.providerAdmin.getHref()}>Back to the list of clients</Link>
            </p>
          )}
        </>
      )}
    </ConsoleFrame>
  );
}

function ClientSections({ client, current }: { client: PublicClient; current: ClientSection }) {
  return (
    <>
      <h1 className="margin-top-2 margin-bottom-1">Settings for: {client.City}</h1>
      <p className="margin-top-0">
        {client.City}, {client.StateProvince} · Client ID {client.ClientID} ·{' '}
        {client.ParcelCount === 1 ? '1 parcel' : `${formatCount(client.ParcelCount)} parcels`}
        {client.LastUpdated ? `, last updated ${formatDate(client.LastUpdated)}` : ''} ·{' '}
        <Link to={paths.municipalityAdmin.getHref(client.StateProvince, client.City)}>
          Open {client.City}’s admin area
        </Link>
      </p>
      <nav aria-label={`Settings for ${client.City}`} className="opp-client-tabs">
        <ul>
          {CLIENT_SECTIONS.map((s) => (
            <li key={s.slug}>
              <Link
                to={paths.providerClient.getHref(
                  client.ClientID,
                  s.slug === CLIENT_SECTIONS[0].slug ? undefined : s.slug,
                )}
                aria-current={s.slug === current ? 'page' : undefined}
              >
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* Keyed by client: another client's page starts from its own values. */}
      <div key={client.ClientID} className="opp-client-section">
        {current === 'details' ? <ClientDetails client={client} /> : null}
        {current === 'contacts' ? <ClientContacts clientId={client.ClientID} /> : null}
        {current === 'roll' ? (
          <>
            <RollPublisher client={client} />
            <ImportHistory clientId={client.ClientID} />
          </>
        ) : null}
        {current === 'parcel-layer' ? <ParcelLayerUpload client={client} /> : null}
      </div>
    </>
  );
}
