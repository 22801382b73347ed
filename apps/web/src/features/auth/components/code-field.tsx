import type { Ref } from 'react';

export interface CodeFieldProps {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  /** Shown under the label and announced; marks the input invalid. */
  error?: string | null;
  /**
   * `totp`: the 6 digits from an authenticator app (numeric keypad on phones, one-time-code autofill).
   * `recovery`: an `xxxxx-xxxxx` recovery code, which has letters.
   */
  kind: 'totp' | 'recovery';
  inputRef?: Ref<HTMLInputElement>;
}

/** A USWDS text input for a two-factor code, with its label, hint and inline error. */
export function CodeField({ id, label, hint, value, onChange, error, kind, inputRef }: CodeFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={`usa-form-group${error ? ' usa-form-group--error' : ''}`}>
      <label className={`usa-label${error ? ' usa-label--error' : ''}`} htmlFor={id}>
        {label}
      </label>
      <span className="usa-hint" id={hintId}>
        {hint}
      </span>
      {/* Always mounted, so each new error is announced (the caller clears it before a retry). */}
      <div aria-live="assertive">
        {error ? (
          <span className="usa-error-message" id={errorId}>
            {error}
          </span>
        ) : null}
      </div>
      <input
        ref={inputRef}
        id={id}
        name={kind === 'totp' ? 'one-time-code' : 'recovery-code'}
        className={`usa-input opp-code-input${error ? ' usa-input--error' : ''}`}
        inputMode={kind === 'totp' ? 'numeric' : 'text'}
        autoComplete={kind === 'totp' ? 'one-time-code' : 'off'}
        autoCapitalize="none"
        spellCheck={false}
        maxLength={32}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        aria-invalid={error ? true : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
