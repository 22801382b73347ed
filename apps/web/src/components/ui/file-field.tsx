import type { Ref } from 'react';

/**
 * A labelled file picker with its error, as the provider console's uploads show it (USWDS form group):
 * the error is announced, named by the input, and marks the group.
 */
export function FileField({
  id,
  label,
  accept,
  error,
  disabled,
  multiple,
  inputRef,
  onPick,
}: {
  id: string;
  label: string;
  accept: string;
  error: string | null;
  disabled?: boolean;
  /** Several files may be picked: `onPick` then also gets them all. */
  multiple?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  onPick: (file: File | null, files: File[]) => void;
}) {
  const errorId = `${id}-error`;
  return (
    <div className={`usa-form-group${error ? ' usa-form-group--error' : ''}`}>
      <label className={`usa-label${error ? ' usa-label--error' : ''}`} htmlFor={id}>
        {label}
      </label>
      {error ? (
        <span className="usa-error-message" id={errorId} role="alert">
          {error}
        </span>
      ) : null}
      <input
        ref={inputRef}
        id={id}
        className="usa-input opp-file"
        type="file"
        accept={accept}
        disabled={disabled}
        multiple={multiple}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          onPick(files[0] ?? null, files);
        }}
      />
    </div>
  );
}
