import type { ReactNode } from 'react';

export interface CodeFormProps {
  /** The form's accessible name. */
  label: string;
  submitLabel: string;
  /** What the submit button says while the request runs (it is disabled meanwhile). */
  pendingLabel: string;
  pending: boolean;
  /** A destructive action (turning the factor off) gets the secondary colour. */
  secondary?: boolean;
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
}

/**
 * The frame shared by the Account security forms that ask for a code: no browser validation (the fields
 * explain their own errors), Enter submits, and the submit and Cancel buttons below the fields.
 */
export function CodeForm({
  label,
  submitLabel,
  pendingLabel,
  pending,
  secondary = false,
  onSubmit,
  onCancel,
  children,
}: CodeFormProps) {
  return (
    <form
      className="usa-form usa-form--large"
      noValidate
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <div className="margin-top-3">
        <button
          type="submit"
          className={secondary ? 'usa-button usa-button--secondary' : 'usa-button'}
          disabled={pending}
        >
          {pending ? pendingLabel : submitLabel}
        </button>
        <button type="button" className="usa-button usa-button--outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
