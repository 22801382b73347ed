import { useId, useMemo, useState } from 'react';
import type { User } from '@opp/contracts';
import { Alert } from '@/components/ui/alert';
import { useProviderAdmins } from '../api/get-provider-admins';
import { ProviderAdminModal } from './provider-admin-modal';

const byUsername = (a: User, b: User) =>
  a.Username.localeCompare(b.Username, 'en-US', { sensitivity: 'base' });

/** Spec §2: the provider's administrators by Username, Edit per row, Add. */
export function ProviderAdminsPanel({ providerName }: { providerName: string }) {
  const id = useId();
  const admins = useProviderAdmins();
  // undefined: closed; null: adding; a user: editing.
  const [editing, setEditing] = useState<User | null | undefined>(undefined);
  const sorted = useMemo(() => [...(admins.data ?? [])].sort(byUsername), [admins.data]);

  return (
    <section aria-labelledby={`${id}-heading`} className="opp-panel">
      <div className="opp-panel__header">
        <h2 id={`${id}-heading`} className="margin-0">
          Provider administrators
        </h2>
        <button
          type="button"
          className="usa-button margin-right-0"
          aria-label="Add a provider administrator"
          onClick={() => setEditing(null)}
        >
          Add
        </button>
      </div>
      {admins.isPending ? <p>Loading administrators…</p> : null}
      {admins.isError ? (
        <Alert
          type="error"
          role="alert"
          text={<>The administrators could not be loaded. {admins.error.message}</>}
        />
      ) : null}
      {admins.data ? (
        <table className="usa-table usa-table--borderless width-full">
          <caption className="opp-visually-hidden">Provider administrators, sorted by Username</caption>
          <thead>
            <tr>
              <th scope="col" aria-sort="ascending">
                Username
              </th>
              <th scope="col">
                <span className="opp-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((u) => (
              <tr key={u.UserId}>
                <th scope="row">
                  {u.Username}
                  <div className="opp-break text-normal text-base-dark font-body-2xs">{u.Email}</div>
                </th>
                <td>
                  <button
                    type="button"
                    className="usa-button usa-button--outline usa-button--small"
                    aria-label={`Edit ${u.Username}`}
                    onClick={() => setEditing(u)}
                  >
                    Edit
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ProviderAdminModal
        open={editing !== undefined}
        admin={editing ?? null}
        providerName={providerName}
        onClose={() => setEditing(undefined)}
      />
    </section>
  );
}
