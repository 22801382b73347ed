import { useId } from 'react';
import type { TwoFactorRecoveryCodesResponse } from '@opp/contracts';
import { CodeField } from '@/features/auth/components/code-field';
import { ApiError } from '@/lib/api-client';
import { replaceRecoveryCodes } from '../api/replace-recovery-codes';
import { useCodeForm } from '../hooks/use-code-form';

export interface NewRecoveryCodesFormProps {
  onReplaced: (result: TwoFactorRecoveryCodesResponse) => void;
  onCancel: () => void;
}

/**
 * New recovery codes take a current code from the authenticator app, never a recovery code: someone
 * who lost the app must not turn one leftover code into ten new ones (that is an administrator's reset).
 */
export function NewRecoveryCodesForm({ onReplaced, onCancel }: NewRecoveryCodesFormProps) {
  const id = useId();
  const { code, setCode, error, setError, pending, codeRef, fail, run } = useCodeForm();

  const submit = async () => {
    setError(null);
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) {
      fail('Enter the 6 digits your authenticator app shows (a recovery code cannot be used here)');
      return;
    }
    await run(
      async () => onReplaced(await replaceRecoveryCodes({ Code: digits })),
      (err) => {
        const field = err instanceof ApiError ? err.fields.find((f) => f.field === 'Code') : undefined;
        fail(
          field
            ? 'That code was not accepted. Wait for the app to show a new code, and enter that one.'
            : err instanceof Error
              ? err.message
              : 'New recovery codes could not be made. Try again.',
        );
      },
    );
  };

  return (
    <form
      className="usa-form usa-form--large"
      noValidate
      aria-label="Get new recovery codes"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p>
        You get ten new recovery codes, shown once. All your current recovery codes stop working, including
        any you have not used.
      </p>
      <CodeField
        id={`${id}-code`}
        kind="totp"
        label="Authentication code"
        hint="6 digits from your authenticator app. If you no longer have the app, ask an administrator to reset two-factor sign-in for your account."
        value={code}
        onChange={setCode}
        error={error}
        inputRef={codeRef}
      />
      <div className="margin-top-3">
        <button type="submit" className="usa-button" disabled={pending}>
          {pending ? 'Checking…' : 'Get new recovery codes'}
        </button>
        <button type="button" className="usa-button usa-button--outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
