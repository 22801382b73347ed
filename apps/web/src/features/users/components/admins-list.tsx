import { useState } from 'react';
import toast from 'react-hot-toast';
import type { User } from '@opp/contracts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FilterableSection, RowActions } from '@/components/ui/filterable-section';
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
            <div className="usa-table-container--scrollable" tabIndex={0} aria-labelledby={headingId}>
              <table className="usa-table usa-table--borderless width-full opp-admin-table">
                <caption className="opp-visually-hidden">Admins of this municipality</caption>
                <thead>
                  <tr>
                    <th scope="col">Username</th>
                    <th scope="col">Email</th>
                    <th scope="col">Super Admin</th>
                    <th scope="col">Site Admin</th>
                    <th scope="col">
                      <span className="opp-visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((u) => (
                    <tr key={u.UserId}>
                      <th scope="row" data-label="Username">
                        {u.Username}
                      </th>
                      <td data-label="Email">{u.Email}</td>
                      <td data-label="Super Admin">{isSuperChecked(u.RoleID) ? 'Yes' : 'No'}</td>
                      <td data-label="Site Admin">{isSiteChecked(u.RoleID) ? 'Yes' : 'No'}</td>
                      <td className="opp-admin-actions">
                        {u.UserId === me.UserId ? (
                          <span className="text-italic">You</span>
                        ) : (
                          <>
                            <RowActions
                              name={u.Username}
                              onEdit={() => setEditor({ open: true, admin: u })}
                              onDelete={() => setDoomed({ open: true, admin: u })}
                            />
                          </>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
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
