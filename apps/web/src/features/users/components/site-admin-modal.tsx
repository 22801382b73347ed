import { useId, useState } from 'react';
import { FormAlert } from '@/components/ui/alert';
import { useOpenCount } from '@/hooks/use-open-count';
import toast from 'react-hot-toast';
import { DEFAULT_ADMIN_ROLE, type User } from '@opp/contracts';
import { Modal } from '@/components/ui/modal';
import { useSaveAdmin, type AdminDraft } from '../api/save-admin';
import { applyRoleCheckbox, isSiteChecked, isSuperChecked } from '../utils/roles';
import {
  keptSaveOutcome,
  useKeptEdit,
  useSaveOnResume,
  type DialogError,
} from '@/features/municipality-admin/utils/pending-edit';

export interface SiteAdminModalProps {
  open: boolean;
  onClose: () => void;
  /** The admin being edited, or null to create one. */
  admin: User | null;
  clientId: number;
}

/**
 * Spec §2 Site Admin modal: Username, Email Address, Password, Confirm Password and the two role
 * checkboxes. A new admin starts as a Site Administrator (RoleID 3) of this client; the password is
 * sent only when typed; the server's error text is shown here.
 */
export function SiteAdminModal({ open, onClose, admin, clientId }: SiteAdminModalProps) {
  const opening = useOpenCount(open);
  return (
    <Modal open={open} onClose={onClose} title={admin ? 'Edit Site Admin' : 'Add Site Admin'}>
      {/* Keyed by opening, so each one starts from the record, not from what was typed last time. */}
      <AdminForm key={opening} admin={admin} clientId={clientId} onDone={onClose} />
    </Modal>
  );
}

/** The dialog's fields: what is saved, and the password typed a second time. */
type AdminFormState = AdminDraft & { Confirm: string };

function AdminForm({
  admin,
  clientId,
  onDone,
}: {
  admin: User | null;
  clientId: number;
  onDone: () => void;
}) {
  const id = useId();
  const save = useSaveAdmin(clientId);
  const start = (): AdminFormState => ({
    UserId: admin?.UserId ?? null,
    Username: admin?.Username ?? '',
    Email: admin?.Email ?? '',
    RoleID: admin?.RoleID ?? DEFAULT_ADMIN_ROLE,
    Manages: admin?.Manages ?? clientId,
    Password: '',
    Confirm: '',
  });
  // What was typed before the session expired, if anything, and kept if it expires now (pending-edit.ts).
  const [draft, setDraft, kept] = useKeptEdit<AdminFormState>(`admin-form:${clientId}`, start, (d) => {
    const s = start();
    return (Object.keys(s) as (keyof AdminFormState)[]).some((k) => d[k] !== s[k]);
  });
  const confirm = draft.Confirm;
  const [error, setError] = useState<DialogError | null>(null);
  const set = (patch: Partial<AdminFormState>) => setDraft((d) => ({ ...d, ...patch }));
  const invalid = (field: string) => error?.fields.includes(field) ?? false;
  const errorId = `${id}-error`;
  const describedBy = (field: string) => (invalid(field) ? errorId : undefined);

  const submit = () => {
    if (draft.Password !== confirm) {
      toast.error('Passwords do not match');
      // Also inside the dialog: the page behind it (toasts included) is inert while it is open.
      setError({ message: 'Passwords do not match', fields: ['Password', 'Confirm'] });
      return;
    }
    setError(null);
    kept.setSaving(true);
    save.mutate(draft, keptSaveOutcome(kept, 'Admin saved', onDone, setError));
  };

  useSaveOnResume(kept, submit);

  return (
    <form
      className="usa-form maxw-full"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <FormAlert message={error?.message} id={errorId} />
      <label className="usa-label" htmlFor={`${id}-username`}>
        Username
      </label>
      <input
        id={`${id}-username`}
        className={`usa-input${invalid('Username') ? ' usa-input--error' : ''}`}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required
        aria-invalid={invalid('Username') || undefined}
        aria-describedby={describedBy('Username')}
        value={draft.Username}
        onChange={(e) => set({ Username: e.target.value })}
      />
      <label className="usa-label" htmlFor={`${id}-email`}>
        Email Address
      </label>
      <input
        id={`${id}-email`}
        className={`usa-input${invalid('Email') ? ' usa-input--error' : ''}`}
        type="email"
        autoComplete="off"
        required
        aria-invalid={invalid('Email') || undefined}
        aria-describedby={describedBy('Email')}
        value={draft.Email}
        onChange={(e) => set({ Email: e.target.value })}
      />
      <label className="usa-label" htmlFor={`${id}-password`}>
        Password
      </label>
      <span className="usa-hint" id={`${id}-password-hint`}>
        {admin ? 'Leave empty to keep the current password. ' : ''}At least 12 characters.
      </span>
      <input
        id={`${id}-password`}
        className={`usa-input${invalid('Password') ? ' usa-input--error' : ''}`}
        type="password"
        autoComplete="new-password"
        aria-invalid={invalid('Password') || undefined}
        aria-describedby={[`${id}-password-hint`, describedBy('Password')].filter(Boolean).join(' ')}
        value={draft.Password}
        onChange={(e) => set({ Password: e.target.value })}
      />
      <label className="usa-label" htmlFor={`${id}-confirm`}>
        Confirm Password
      </label>
      <input
        id={`${id}-confirm`}
        className={`usa-input${invalid('Confirm') ? ' usa-input--error' : ''}`}
        type="password"
        autoComplete="new-password"
        aria-invalid={invalid('Confirm') || undefined}
        aria-describedby={describedBy('Confirm')}
        value={confirm}
        onChange={(e) => set({ Confirm: e.target.value })}
      />
      <fieldset className="usa-fieldset margin-top-3">
        <legend className="usa-legend">Roles</legend>
        <div className="usa-checkbox">
          <input
            id={`${id}-super`}
            className="usa-checkbox__input"
            type="checkbox"
            checked={isSuperChecked(draft.RoleID)}
            onChange={(e) => set({ RoleID: applyRoleCheckbox(draft.RoleID, 'super', e.target.checked) })}
          />
          <label className="usa-checkbox__label" htmlFor={`${id}-super`}>
            Super Administrator
          </label>
        </div>
        <div className="usa-checkbox">
          <input
            id={`${id}-site`}
            className="usa-checkbox__input"
            type="checkbox"
            checked={isSiteChecked(draft.RoleID)}
            onChange={(e) => set({ RoleID: applyRoleCheckbox(draft.RoleID, 'site', e.target.checked) })}
          />
          <label className="usa-checkbox__label" htmlFor={`${id}-site`}>
            Site Administrator
          </label>
        </div>
      </fieldset>
      <button type="submit" className="usa-button margin-top-3" disabled={save.isPending}>
        Update
      </button>
    </form>
  );
}
