import { useState } from 'react';
import toast from 'react-hot-toast';
import type { User } from '@opp/contracts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FilterableSection, ListTable, RowActions } from '@/components/ui/filterable-section';
import { useKeptEdit } from '@/features/municipality-admin/utils/pending-edit';
import { filterBy } from '@/utils/filter';
import { useClientAdmins } from '../api/get-client-admins';
import { useDeleteAdmin } from '../api/delete-admin';
import { isSiteChecked, isSuperChecked } from '../utils/roles';
import { SiteAdminModal } from './site-admin-modal';

export interface AdminsListProps {
  clientId: number;
  /** The signed-in user: their own row has no Edit or Delete (spec §6). */
  me: User;
}

/**
 * Spec §2 Admins list with its client-side filter (case-insensitive, on Username). Shown only to those
 * who may manage admins; if the list cannot be loaded it is hidden (spec §8).
 */
export function AdminsList({ clientId, me }: AdminsListProps) {
  const admins = useClientAdmins(clientId, true);
  const remove = useDeleteAdmin(clientId);
  const [query, setQuery] = useState('');
  // The target outlives `open` so the dialogs keep their text while they fade out.
  // An open dialog is open again after signing in again when the session expired (pending-edit.ts).
  const [editor, setEditor] = useKeptEdit<{ open: boolean; admin: User | null }>(
    `admins:${clientId}:dialog`,
    () => ({ open: false, admin: null }),
    (e) => e.open,
  );
  const [doomed, setDoomed] = useState<{ open: boolean; admin: User | null }>({ open: false, admin: null });
  const deleting = doomed.admin;

  if (admins.isError) return null;
  const all = admins.data ?? [];
  const shown = filterBy(all, query, (u) => u.Username);

  const confirmDelete = () => {
    if (!deleting || !doomed.open) return;
    remove.mutate(deleting.UserId, {
      onSuccess: () => {
        toast.success('Admin deleted');
        setDoomed((d) => ({ ...d, open: false }));
      },
      onError: () => toast.error('An error occured'),
    });
  };

  return (
    <FilterableSection
      title="Admins"
      addLabel="Add admin"
      onAdd={() => setEditor({ open: true, admin: null })}
      filterLabel="Filter admins by username"
      query={query}
      onQueryChange={setQuery}
      status={admins.isSuccess ? `${shown.length} of ${all.length} admins shown` : ''}
    >
      {(headingId) => (
        <>
          {admins.isPending ? (
            <p>Loading admins…</p>
          ) : shown.length === 0 ? (
            <p>{all.length === 0 ? 'No admins yet.' : 'No admin matches the filter.'}</p>
          ) : (
            <ListTable
              headingId={headingId}
              caption="Admins of this municipality"
              columns={[
                { label: 'Username', render: (u) => u.Username },
                { label: 'Email', render: (u) => u.Email },
                { label: 'Super Admin', render: (u) => (isSuperChecked(u.RoleID) ? 'Yes' : 'No') },
                { label: 'Site Admin', render: (u) => (isSiteChecked(u.RoleID) ? 'Yes' : 'No') },
              ]}
              rows={shown}
              rowKey={(u) => u.UserId}
              actions={(u) =>
                u.UserId === me.UserId ? (
                  <span className="text-italic">You</span>
                ) : (
                  <RowActions
                    name={u.Username}
                    onEdit={() => setEditor({ open: true, admin: u })}
                    onDelete={() => setDoomed({ open: true, admin: u })}
                  />
                )
              }
            />
          )}
          <SiteAdminModal
            open={editor.open}
            admin={editor.admin}
            clientId={clientId}
            onClose={() => setEditor((e) => ({ ...e, open: false }))}
          />
          <ConfirmDialog
            open={doomed.open}
            title="Delete admin?"
            confirmLabel="Delete"
            pending={remove.isPending}
            onConfirm={confirmDelete}
            onCancel={() => setDoomed((d) => ({ ...d, open: false }))}
          >
            <p>
              Delete the admin account <strong>{deleting?.Username}</strong>? They are signed out at once and
              can no longer sign in.
            </p>
          </ConfirmDialog>
        </>
      )}
    </FilterableSection>
  );
}
