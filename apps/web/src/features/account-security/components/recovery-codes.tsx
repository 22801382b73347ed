import { useId, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { recoveryCodesText } from '../utils/format-secret';

export interface RecoveryCodesProps {
  codes: string[];
  /** The username, written into the downloaded file. */
  account: string;
  /** The portal's name, written into the downloaded file. */
  issuer: string;
  /** "Continue" when the user came here from elsewhere, "Done" otherwise. */
  doneLabel: string;
  onDone: () => void;
  /** A new set replacing the old one (rather than the first set, at enrolment). */
  replaced?: boolean;
}

/**
 * The recovery codes, shown once right after enrolment or after getting new ones: copy, download or
 * print them, then confirm they were saved (the server cannot show them again).
 */
export function RecoveryCodes({
  codes,
  account,
  issuer,
  doneLabel,
  onDone,
  replaced = false,
}: RecoveryCodesProps) {
  const id = useId();
  const [saved, setSaved] = useState(false);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const checkboxRef = useRef<HTMLInputElement>(null);
  const text = recoveryCodesText(codes, account, issuer);

  const copy = async () => {
    setNotice('');
    try {
      await navigator.clipboard.writeText(text);
      setNotice('Recovery codes copied.');
    } catch {
      setNotice('Copying did not work here: select the codes and copy them, or download them.');
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    setNotice('Recovery codes downloaded as recovery-codes.txt.');
  };

  const finish = () => {
    if (!saved) {
      setError('Confirm that you have saved your recovery codes');
      checkboxRef.current?.focus();
      return;
    }
    onDone();
  };

  return (
    <div className="opp-recovery">
      <Alert
        type="warning"
        text={
          <>
            {replaced
              ? 'Your old recovery codes no longer work. Save these new ones now: they are shown only this once.'
              : 'Two-factor sign-in is on. Save these recovery codes now: they are shown only this once.'}{' '}
            Each one signs you in once if you lose your phone or authenticator app.
          </>
        }
      />
      <div className="opp-recovery-print">
        <p className="opp-print-only">{`Recovery codes for ${account} at ${issuer}`}</p>
        <ol className="opp-recovery-codes" aria-label="Recovery codes">
          {codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ol>
      </div>
      <div className="opp-recovery-actions">
        <button type="button" className="usa-button usa-button--outline" onClick={() => void copy()}>
          Copy codes
        </button>
        <button type="button" className="usa-button usa-button--outline" onClick={download}>
          Download codes
        </button>
        <button type="button" className="usa-button usa-button--outline" onClick={() => window.print()}>
          Print codes
        </button>
      </div>
      <p role="status" className="margin-y-1">
        {notice}
      </p>
      <div className={`usa-form-group${error && !saved ? ' usa-form-group--error' : ''}`}>
        <div aria-live="assertive">
          {error && !saved ? (
            <span className="usa-error-message" id={`${id}-error`}>
              {error}
            </span>
          ) : null}
        </div>
        <div className="usa-checkbox">
          <input
            ref={checkboxRef}
            className="usa-checkbox__input"
            id={`${id}-saved`}
            type="checkbox"
            checked={saved}
            aria-describedby={error && !saved ? `${id}-error` : undefined}
            onChange={(e) => setSaved(e.target.checked)}
          />
          <label className="usa-checkbox__label" htmlFor={`${id}-saved`}>
            I have saved my recovery codes somewhere safe
          </label>
        </div>
      </div>
      <button type="button" className="usa-button margin-top-3" onClick={finish}>
        {doneLabel}
      </button>
    </div>
  );
}
