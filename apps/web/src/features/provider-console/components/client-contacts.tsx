import { useId } from 'react';
import { useClientContacts } from '../api/get-client-contacts';

/** The client's public contacts, read-only here (its admins edit them in the municipality admin area). */
export function ClientContacts({ clientId }: { clientId: number }) {
  const id = useId();
  const contacts = useClientContacts(clientId);
  return (
    <section aria-labelledby={`${id}-heading`} className="margin-top-4">
      <h2 id={`${id}-heading`} className="margin-bottom-1">
        Contacts
      </h2>
      {contacts.isPending ? <p>Loading…</p> : null}
      {contacts.isError ? <p className="usa-error-message">The contacts could not be loaded.</p> : null}
      {contacts.data && contacts.data.length === 0 ? <p>This client has no contacts yet.</p> : null}
      {contacts.data && contacts.data.length > 0 ? (
        <ul className="usa-list usa-list--unstyled">
          {contacts.data.map((c) => (
            <li key={c.ContactID} className="margin-bottom-1">
              <strong>{c.Title}</strong>
              {[c.Telephone, c.ContactEmail, c.ContactUrl].filter(Boolean).length > 0 ? (
                <span> — {[c.Telephone, c.ContactEmail, c.ContactUrl].filter(Boolean).join(' · ')}</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
