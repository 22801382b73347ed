import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import type { Contact } from '@opp/contracts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { filterBy } from '@/utils/filter';
import { useClientContacts, useDeleteContact } from '../api/contacts';
import { ContactModal } from './contact-modal';

/** Spec §2 Contacts list with its client-side filter (case-insensitive, on Title). */
export function ContactsList({ clientId }: { clientId: number }) {
  const id = useId();
  const contacts = useClientContacts(clientId);
  const remove = useDeleteContact(clientId);
  const [query, setQuery] = useState('');
  // The target outlives `open` so the dialogs keep their text while they fade out.
  const [editor, setEditor] = useState<{ open: boolean; contact: Contact | null }>({
    open: false,
    contact: null,
  });
  const [doomed, setDoomed] = useState<{ open: boolean; contact: Contact | null }>({
    open: false,
    contact: null,
  });

  const all = contacts.data ?? [];
  const shown = filterBy(all, query, (c) => c.Title);

  const confirmDelete = () => {
    const target = doomed.contact;
    if (!target || !doomed.open) return;
    remove.mutate(target.ContactID, {
      onSuccess: () => {
        toast.success('Contact deleted');
        setDoomed((d) => ({ ...d, open: false }));
      },
      onError: () => toast.error('An error occured'),
    });
  };

  return (
    <section className="opp-admin-section" aria-labelledby={`${id}-heading`}>
      <div className="opp-admin-section__head">
        <h2 id={`${id}-heading`} className="margin-0">
          Contacts
        </h2>
        <button
          type="button"
          className="usa-button"
          aria-haspopup="dialog"
          onClick={() => setEditor({ open: true, contact: null })}
        >
          Add contact
        </button>
      </div>
      <label className="usa-label" htmlFor={`${id}-filter`}>
        Filter contacts by name or title
      </label>
      <input
        id={`${id}-filter`}
        className="usa-input opp-admin-filter"
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <p className="opp-visually-hidden" role="status">
        {contacts.isSuccess ? `${shown.length} of ${all.length} contacts shown` : ''}
      </p>
      {contacts.isPending ? (
        <p>Loading contacts…</p>
      ) : contacts.isError ? (
        <p>The contacts could not be loaded. {contacts.error.message}</p>
      ) : shown.length === 0 ? (
        <p>{all.length === 0 ? 'No contacts yet.' : 'No contact matches the filter.'}</p>
      ) : (
        <div className="usa-table-container--scrollable" tabIndex={0} aria-labelledby={`${id}-heading`}>
          <table className="usa-table usa-table--borderless width-full">
            <caption className="opp-visually-hidden">Contacts of this municipality</caption>
            <thead>
              <tr>
                <th scope="col">Name/Title</th>
                <th scope="col">Phone Number</th>
                <th scope="col">Email Address</th>
                <th scope="col">
                  <span className="opp-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((c) => (
                <tr key={c.ContactID}>
                  <th scope="row">{c.Title}</th>
                  <td>{c.Telephone}</td>
                  <td>{c.ContactEmail}</td>
                  <td className="opp-admin-actions">
                    <button
                      type="button"
                      className="usa-button usa-button--outline usa-button--small"
                      aria-haspopup="dialog"
                      aria-label={`Edit ${c.Title}`}
                      onClick={() => setEditor({ open: true, contact: c })}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="usa-button usa-button--secondary usa-button--small"
                      aria-haspopup="dialog"
                      aria-label={`Delete ${c.Title}`}
                      onClick={() => setDoomed({ open: true, contact: c })}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ContactModal
        open={editor.open}
        contact={editor.contact}
        clientId={clientId}
        onClose={() => setEditor((e) => ({ ...e, open: false }))}
      />
      <ConfirmDialog
        open={doomed.open}
        title="Delete contact?"
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDoomed((d) => ({ ...d, open: false }))}
      >
        <p>
          Delete the contact <strong>{doomed.contact?.Title}</strong>? It disappears from the public Contact
          Info at once.
        </p>
      </ConfirmDialog>
    </section>
  );
}
