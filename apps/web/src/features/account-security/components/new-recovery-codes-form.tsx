import { useId } from 'react';
import type { TwoFactorRecoveryCodesResponse } from '@opp/contracts';
import { CodeField } from '@/features/auth/components/code-field';
import { replaceRecoveryCodes } from '../api/replace-recovery-codes';
import { useCodeForm } from '../hooks/use-code-form';
import { CodeForm } from './code-form';

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
  const { code, setCode, error, pending, codeRef, submitAppCode } = useCodeForm();

  const submit = () =>
    submitAppCode(async (digits) => onReplaced(await replaceRecoveryCodes({ Code: digits })), {
      invalid: 'Enter the 6 digits your authenticator app shows (a recovery code cannot be used here)',
      refused: 'That code was not accepted. Wait for the app to show a new code, and enter that one.',
      failed: 'New recovery codes could not be made. Try again.',
    });

  return (
    <CodeForm
      label="Get new recovery codes"
      submitLabel="Get new recovery codes"
      pendingLabel="Checking…"
      pending={pending}
      onSubmit={() => void submit()}
      onCancel={onCancel}
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
    </CodeForm>
  );
}
