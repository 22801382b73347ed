import { useId } from 'react';
import type { TwoFactorConfirmResponse, TwoFactorStartResponse } from '@opp/contracts';
import { CodeField } from '@/features/auth/components/code-field';
import { confirmTwoFactor } from '../api/confirm-two-factor';
import { useCodeForm } from '../hooks/use-code-form';
import { groupSecret } from '../utils/format-secret';
import { CodeForm } from './code-form';
import { QrCode } from './qr-code';

export interface EnrolmentFormProps {
  enrolment: TwoFactorStartResponse;
  onConfirmed: (result: TwoFactorConfirmResponse) => void;
  onCancel: () => void;
}

/**
 * Enrolment, step two: add the secret to an authenticator app (QR code, link, or the key typed by
 * hand), then prove it works with a code. Nothing changes at sign-in until that code is accepted.
 */
export function EnrolmentForm({ enrolment, onConfirmed, onCancel }: EnrolmentFormProps) {
  const id = useId();
  const { code, setCode, error, pending, codeRef, submitAppCode } = useCodeForm();

  const submit = () =>
    submitAppCode(async (digits) => onConfirmed(await confirmTwoFactor({ Code: digits })), {
      invalid: 'Enter the 6 digits your authenticator app shows',
      refused:
        'That code was not accepted. Check that the time on your device is right, and enter the newest code.',
      failed: 'Two-factor sign-in could not be turned on. Try again.',
    });

  return (
    <>
      <ol className="opp-steps">
        <li>
          <h3>Add this account to your authenticator app</h3>
          <p>
            Use any authenticator app (for example on your phone). Scan the QR code, or type the key below
            into the app.
          </p>
          <QrCode text={enrolment.OtpauthUri} label="QR code to add this account to an authenticator app" />
          <p className="margin-bottom-0">
            <strong>Key for typing by hand</strong> (time-based, 6 digits):
          </p>
          <p className="margin-top-0">
            <code className="opp-secret">{groupSecret(enrolment.Secret)}</code>
          </p>
          <p>
            On the device with your authenticator app?{' '}
            <a href={enrolment.OtpauthUri}>Open this account in your authenticator app</a>
          </p>
        </li>
        <li>
          <h3>Enter the code the app shows</h3>
          <CodeForm
            label="Confirm two-factor sign-in"
            submitLabel="Turn on two-factor sign-in"
            pendingLabel="Checking…"
            pending={pending}
            onSubmit={() => void submit()}
            onCancel={onCancel}
          >
            <CodeField
              id={`${id}-code`}
              kind="totp"
              label="Authentication code"
              hint="6 digits, for example 123456. The app shows a new one every 30 seconds."
              value={code}
              onChange={setCode}
              error={error}
              inputRef={codeRef}
            />
          </CodeForm>
        </li>
      </ol>
    </>
  );
}
