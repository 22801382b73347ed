import { useState } from 'react';
import toast from 'react-hot-toast';
import type { Contact } from '@opp/contracts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FilterableSection, ListTable, RowActions } from '@/components/ui/filterable-section';
import { useKeptEdit } from '@/features/municipality-admin/utils/pending-edit';
import { filterBy } from '@/utils/filter';
import { useClientContacts, useDeleteContact } from '../api/contacts';
import { ContactModal } from './contact-modal';

/** Spec §2 Contacts list with its client-side filter (case-insensitive, on Title). */
export function ContactsList({ clientId }: { clientId: number }) {
  const contacts = useClientContacts(clientId);
  const remove = useDeleteContact(clientId);
  const [query, setQuery] = useState('');
  // The target outlives `open` so the dialogs keep their text while they fade out.
  // An open dialog is open again after signing in again when the session expired (pending-edit.ts).
  const [editor, setEditor] = useKeptEdit<{ open: boolean; contact: Contact | null }>(
    `contacts:${clientId}:dialog`,
    () => ({ open: false, contact: null }),
    (e) => e.open,
  );
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
    <FilterableSection
      title="Contacts"
      addLabel="Add contact"
      onAdd={() => setEditor({ open: true, contact: null })}
      filterLabel="Filter contacts by name or title"
      query={query}
      onQueryChange={setQuery}
      status={contacts.isSuccess ? `${shown.length} of ${all.length} contacts shown` : ''}
    >
      {(headingId) => (
        <>
          {contacts.isPending ? (
            <p>Loading contacts…</p>
          ) : contacts.isError ? (
            <p>The contacts could not be loaded. {contacts.error.message}</p>
          ) : shown.length === 0 ? (
            <p>{all.length === 0 ? 'No contacts yet.' : 'No contact matches the filter.'}</p>
          ) : (
            <ListTable
              headingId={headingId}
              caption="Contacts of this municipality"
              columns={[
                { label: 'Name/Title', render: (c) => c.Title },
                { label: 'Phone Number', render: (c) => c.Telephone },
                { label: 'Email Address', render: (c) => c.ContactEmail },
              ]}
              rows={shown}
              rowKey={(c) => c.ContactID}
              actions={(c) => (
                <RowActions
                  name={c.Title}
                  onEdit={() => setEditor({ open: true, contact: c })}
                  onDelete={() => setDoomed({ open: true, contact: c })}
                />
              )}
            />
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
              Delete the contact <strong>{doomed.contact?.Title}</strong>? It disappears from the public
              Contact Info at once.
            </p>
          </ConfirmDialog>
        </>
      )}
    </FilterableSection>
  );
}
