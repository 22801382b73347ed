import type { PublicClient, User } from '@opp/contracts';
import { canManageAdmins } from '@opp/contracts';
import { ContactsList } from '@/features/contacts/components/contacts-list';
import { AdminsList } from '@/features/users/components/admins-list';
import { ClientForm } from './client-form';
import { OwnerPrivacy } from './owner-privacy';

/**
 * The signed-in admin's screen for one municipality: the client form, its contacts and — for those who
 * may manage admins (provider admins and the town's Super Administrators) — its owner privacy settings
 * (read-only) and its admins.
 */
export function MunicipalityAdmin({ client, me }: { client: PublicClient; me: User }) {
  const actor = { id: me.UserId, roleId: me.RoleID, manages: me.Manages };
  return (
    <>
      <h1 className="margin-bottom-0">
        {client.City}, {client.StateProvince}
      </h1>
      <p className="margin-top-05 text-base-dark">Municipality administration</p>
      <ClientForm key={client.ClientID} client={client} me={me} />
      <ContactsList clientId={client.ClientID} />
      {canManageAdmins(actor, client.ClientID) ? (
        <>
          <OwnerPrivacy client={client} />
          <AdminsList clientId={client.ClientID} me={me} />
        </>
      ) : null}
    </>
  );
}
