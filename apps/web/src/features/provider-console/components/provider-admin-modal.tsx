import { useEffect, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import type { User } from '@opp/contracts';
import { FormAlert } from '@/components/ui/alert';
import { Modal } from '@/components/ui/modal';
import { ApiError } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';
import { useSaveProviderAdmin } from '../api/save-provider-admin';

interface Values {
  Username: string;
  Email: string;
  Password: string;
  Confirm: string;
  CurrentPassword: string;
  Code: string;
}
type Errors = Partial<Record<keyof Values, string>>;

const empty: Values = { Username: '', Email: '', Password: '', Confirm: '', CurrentPassword: '', Code: '' };
/** Server field names → this form's inputs. */
const FIELD_OF: Record<string, keyof Values> = {
  Username: 'Username',
  Email: 'Email',
  Password: 'Password',
  CurrentPassword: 'CurrentPassword',
  Code: 'Code',
};

export interface ProviderAdminModalProps {
  open: boolean;
  /** The admin being edited, or null to add one. */
  admin: User | null;
  providerName: string;
  onClose: () => void;
}

/** Spec §2 admin modal "{provider} Admin": Name, Email, New Password, Confirm Password; Update or Add. */
export function ProviderAdminModal({ open, admin, providerName, onClose }: ProviderAdminModalProps) {
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const save = useSaveProviderAdmin();
  const editing = admin !== null;
  // Your own password, email or username changes only with your current password (and code).
  const self = editing && admin.UserId === authStore.getUser()?.UserId;

  // Each opening starts from the chosen admin (or a blank form).
  useEffect(() => {
    if (!open) return;
    setValues(admin ? { ...empty, Username: admin.Username, Email: admin.Email } : empty);
    setErrors({});
    setProblem(null);
  }, [open, admin]);

  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const submit = () => {
    setProblem(null);
    const found: Errors = {};
    if (!editing && !values.Password) found.Password = 'Password is required';
    if (values.Password !== values.Confirm) found.Confirm = 'Passwords do not match';
    setErrors(found);
    if (Object.keys(found).length > 0) {
      if (found.Confirm) toast.error('Passwords do not match');
      setAttempt((n) => n + 1);
      return;
    }
    save.mutate(
      {
        UserId: admin?.UserId ?? null,
        Username: values.Username,
        Email: values.Email,
        Password: values.Password,
        ...(self ? { CurrentPassword: values.CurrentPassword, Code: values.Code } : {}),
      },
      {
        onSuccess: (saved) => {
          // Editing yourself: the header shows the new name at once.
          if (saved.UserId === authStore.getUser()?.UserId) authStore.setUser(saved);
          toast.success('Admin saved');
          onClose();
        },
        onError: (err) => {
          toast.error('An error occured');
          if (err instanceof ApiError) {
            const byField: Errors = {};
            for (const f of err.fields) {
              const key = FIELD_OF[f.field];
              if (key) byField[key] ??= f.message;
            }
            setErrors(byField);
            setProblem(
              err.fields.length > 0 && Object.keys(byField).length === err.fields.length ? null : err.message,
            );
          } else setProblem('The administrator could not be saved. Try again.');
          setAttempt((n) => n + 1);
        },
      },
    );
  };

  const field = (key: keyof Values, label: string, type: string, autoComplete: string, hint?: string) => {
    const id = `${formId}-${key}`;
    const error = errors[key];
    const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
    return (
      <div className={`usa-form-group${error ? ' usa-form-group--error' : ''}`}>
        <label className={`usa-label${error ? ' usa-label--error' : ''}`} htmlFor={id}>
          {label}
        </label>
        {hint ? (
          <div className="usa-hint" id={`${id}-hint`}>
            {hint}
          </div>
        ) : null}
        {error ? (
          <span className="usa-error-message" id={`${id}-error`}>
            {error}
          </span>
        ) : null}
        <input
          id={id}
          name={key}
          className={`usa-input${error ? ' usa-input--error' : ''}`}
          type={type}
          autoComplete={autoComplete}
          value={values[key]}
          disabled={save.isPending}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
        />
      </div>
    );
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={`${providerName} Admin`}
      footer={
        <button type="submit" form={formId} className="usa-button" disabled={save.isPending}>
          {editing ? 'Update' : 'Add'}
        </button>
      }
    >
      <form
        id={formId}
        ref={formRef}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <FormAlert message={problem} className="margin-bottom-2" />
        {field('Username', 'Name', 'text', 'off', 'The username this administrator signs in with.')}
        {field('Email', 'Email', 'email', 'off')}
        {field(
          'Password',
          'New Password',
          'password',
          'new-password',
          editing
            ? 'Leave empty to keep the current password. At least 12 characters.'
            : 'At least 12 characters.',
        )}
        {field('Confirm', 'Confirm Password', 'password', 'new-password')}
        {self
          ? field(
              'CurrentPassword',
              'Current Password',
              'password',
              'current-password',
              'Needed to change your own password, email or username.',
            )
          : null}
        {self && admin.TwoFactorEnabled
          ? field('Code', 'Authenticator Code', 'text', 'one-time-code', 'Or one of your recovery codes.')
          : null}
      </form>
    </Modal>
  );
}
