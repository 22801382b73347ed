import { useId, useState } from 'react';
import { FormAlert } from '@/components/ui/alert';
import { CodeField } from '@/features/auth/components/code-field';
import { ApiError } from '@/lib/api-client';
import { disableTwoFactor } from '../api/disable-two-factor';
import { useCodeForm } from '../hooks/use-code-form';
import { CodeForm } from './code-form';

export interface TurnOffFormProps {
  onTurnedOff: () => void;
  onCancel: () => void;
}

/**
 * Turning two-factor sign-in off takes a current code or a recovery code, so a stolen session alone
 * cannot remove it. The server may refuse outright (a provider that requires it): its message is shown.
 */
export function TurnOffForm({ onTurnedOff, onCancel }: TurnOffFormProps) {
  const id = useId();
  const { code, setCode, error, setError, pending, codeRef, fail, run } = useCodeForm();
  const [kind, setKind] = useState<'totp' | 'recovery'>('totp');
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    setRefusal(null);
    if (!code.trim()) {
      fail(kind === 'totp' ? 'Enter the 6-digit code from your app' : 'Enter one of your recovery codes');
      return;
    }
    await run(
      async () => {
        await disableTwoFactor({ Code: code.trim() });
        onTurnedOff();
      },
      (err) => {
        if (err instanceof ApiError && err.status === 403) setRefusal(err.message);
        else if (err instanceof ApiError && err.fields.some((f) => f.field === 'Code'))
          fail('That code was not accepted. Enter a current code or an unused recovery code.');
        else
          fail(err instanceof Error ? err.message : 'Two-factor sign-in could not be turned off. Try again.');
      },
    );
  };

  return (
    <CodeForm
      label="Turn off two-factor sign-in"
      submitLabel="Turn off two-factor sign-in"
      pendingLabel="Turning off…"
      pending={pending}
      secondary
      onSubmit={() => void submit()}
      onCancel={onCancel}
    >
      <FormAlert message={refusal} />
      <p>
        After this, signing in takes only your username and password, and your recovery codes stop working.
      </p>
      <CodeField
        id={`${id}-code`}
        kind={kind}
        label={kind === 'totp' ? 'Authentication code' : 'Recovery code'}
        hint={kind === 'totp' ? '6 digits from your authenticator app' : 'For example abcde-fghij'}
        value={code}
        onChange={setCode}
        error={error}
        inputRef={codeRef}
      />
      <button
        type="button"
        className="usa-button usa-button--unstyled margin-top-1"
        onClick={() => {
          setKind((k) => (k === 'totp' ? 'recovery' : 'totp'));
          setCode('');
          setError(null);
          requestAnimationFrame(() => codeRef.current?.focus());
        }}
      >
        {kind === 'totp' ? 'Use a recovery code instead' : 'Use the code from your app instead'}
      </button>
    </CodeForm>
  );
}
