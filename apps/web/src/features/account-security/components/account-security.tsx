import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { TWO_FACTOR_ENROLMENT_MESSAGE, type TwoFactorStartResponse, type User } from '@opp/contracts';
import { Alert, FormAlert } from '@/components/ui/alert';
import { ApiError } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';
import { useTwoFactorStatus } from '../api/get-two-factor-status';
import { twoFactorKeys } from '../api/query-keys';
import { startTwoFactor } from '../api/start-two-factor';
import { EnrolmentForm } from './enrolment-form';
import { NewRecoveryCodesForm } from './new-recovery-codes-form';
import { RecoveryCodes } from './recovery-codes';
import { TurnOffForm } from './turn-off-form';
import '../account-security.css';

/** Few enough that it is time to get new ones. */
const LOW_RECOVERY_CODES = 3;

export interface AccountSecurityProps {
  user: User;
  /** The portal's name, for the recovery codes file. */
  issuer: string;
  /** Where to continue after enrolment (the page the user was sent here from), or null. */
  next: string | null;
  /** The admin area's own page, and what to call it. */
  backHref: string;
  backLabel: string;
}

type View =
  | { name: 'status'; notice?: string }
  | { name: 'enrol'; enrolment: TwoFactorStartResponse }
  | { name: 'codes'; codes: string[]; replaced: boolean }
  | { name: 'new-codes' }
  | { name: 'turn-off' };

const headings: Record<View['name'], string> = {
  status: 'Two-factor sign-in',
  enrol: 'Set up two-factor sign-in',
  codes: 'Save your recovery codes',
  'new-codes': 'Get new recovery codes',
  'turn-off': 'Turn off two-factor sign-in',
};

/**
 * Account security for any signed-in admin: two-factor sign-in (TOTP, any authenticator app) on or
 * off, recovery codes left; turning it on (secret, QR code, a code to confirm, recovery codes shown
 * once), new recovery codes (with a code from the app; shown once the same way) and off (with a code).
 * Each step change moves focus to the step's heading.
 */
export function AccountSecurity({ user, issuer, next, backHref, backLabel }: AccountSecurityProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const status = useTwoFactorStatus(user.UserId);
  const [view, setView] = useState<View>({ name: 'status' });
  const [startError, setStartError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const stepHeadingRef = useRef<HTMLHeadingElement>(null);
  const shownView = useRef(view.name);

  useEffect(() => {
    if (shownView.current === view.name) return;
    shownView.current = view.name;
    stepHeadingRef.current?.focus();
  }, [view.name]);

  const refresh = (enabled: boolean) => {
    // The stored user carries the flag the admin areas check before asking the server.
    authStore.setUser({ ...user, TwoFactorEnabled: enabled });
    void queryClient.invalidateQueries({ queryKey: twoFactorKeys.status(user.UserId) });
  };

  const start = async () => {
    setStartError(null);
    setStarting(true);
    try {
      setView({ name: 'enrol', enrolment: await startTwoFactor() });
    } catch (err) {
      setStartError(err instanceof ApiError || err instanceof Error ? err.message : 'Try again.');
    } finally {
      setStarting(false);
    }
  };

  const s = status.data;
  return (
    <div className="opp-security">
      <p className="margin-top-2 margin-bottom-2">
        <Link to={backHref}>{backLabel}</Link>
      </p>
      <h1 className="margin-top-2 margin-bottom-2">Account security</h1>
      <h2 ref={stepHeadingRef} tabIndex={-1}>
        {headings[view.name]}
      </h2>

      {view.name === 'status' ? (
        status.isPending ? (
          <p role="status">Loading…</p>
        ) : status.isError || !s ? (
          <Alert
            type="error"
            role="alert"
            text={status.error instanceof Error ? status.error.message : 'The status could not be loaded.'}
          />
        ) : (
          <>
            <div role="status">{view.notice ? <Alert type="success" text={view.notice} /> : null}</div>
            {s.Required && !s.Enabled ? (
              <Alert
                type="warning"
                slim={false}
                heading={<h3 className="usa-alert__heading">Two-factor sign-in is required</h3>}
                text={
                  <>
                    {TWO_FACTOR_ENROLMENT_MESSAGE}. Turn it on below
                    {next ? ', then you will continue where you were' : ''}.
                  </>
                }
              />
            ) : null}
            <p>
              With two-factor sign-in on, signing in as <strong>{user.Username}</strong> takes your password
              and a code from an authenticator app on your phone or computer, so a stolen password alone is
              not enough.
            </p>
            <dl className="opp-security-status">
              <dt>Status</dt>
              <dd>
                <strong>{s.Enabled ? 'On' : 'Off'}</strong>
              </dd>
              {s.Enabled ? (
                <>
                  <dt>Recovery codes left</dt>
                  <dd>{s.RecoveryCodesLeft}</dd>
                </>
              ) : null}
            </dl>
            {s.Enabled && s.RecoveryCodesLeft <= LOW_RECOVERY_CODES ? (
              <Alert
                type="warning"
                text={
                  <>
                    {s.RecoveryCodesLeft === 0
                      ? 'No recovery codes are left.'
                      : 'Few recovery codes are left.'}
                    {' Get new ones below with a code from your authenticator app.'}
                  </>
                }
              />
            ) : null}
            <FormAlert message={startError} />
            <div className="margin-top-3">
              {!s.Enabled ? (
                <button type="button" className="usa-button" disabled={starting} onClick={() => void start()}>
                  {starting ? 'Starting…' : 'Turn on two-factor sign-in'}
                </button>
              ) : (
                <>
                  {s.Required ? (
                    <p>Your provider requires two-factor sign-in for your account, so it stays on.</p>
                  ) : null}
                  <button
                    type="button"
                    className="usa-button usa-button--outline"
                    onClick={() => setView({ name: 'new-codes' })}
                  >
                    Get new recovery codes
                  </button>
                  {s.Required ? null : (
                    <button
                      type="button"
                      className="usa-button usa-button--outline"
                      onClick={() => setView({ name: 'turn-off' })}
                    >
                      Turn off two-factor sign-in
                    </button>
                  )}
                </>
              )}
              {s.Enabled && next ? (
                <Link className="usa-button" to={next}>
                  Continue
                </Link>
              ) : null}
            </div>
          </>
        )
      ) : null}

      {view.name === 'enrol' ? (
        <EnrolmentForm
          enrolment={view.enrolment}
          onConfirmed={(result) => {
            refresh(true);
            setView({ name: 'codes', codes: result.RecoveryCodes, replaced: false });
          }}
          onCancel={() => setView({ name: 'status' })}
        />
      ) : null}

      {view.name === 'codes' ? (
        <RecoveryCodes
          codes={view.codes}
          account={user.Username}
          issuer={issuer}
          replaced={view.replaced}
          doneLabel={next && !view.replaced ? 'Continue' : 'Done'}
          onDone={() => {
            if (view.replaced)
              setView({
                name: 'status',
                notice: 'You have new recovery codes; the old ones no longer work.',
              });
            else if (next) void navigate(next);
            else setView({ name: 'status', notice: 'Two-factor sign-in is on.' });
          }}
        />
      ) : null}

      {view.name === 'new-codes' ? (
        <NewRecoveryCodesForm
          onReplaced={(result) => {
            refresh(true);
            setView({ name: 'codes', codes: result.RecoveryCodes, replaced: true });
          }}
          onCancel={() => setView({ name: 'status' })}
        />
      ) : null}

      {view.name === 'turn-off' ? (
        <TurnOffForm
          onTurnedOff={() => {
            refresh(false);
            setView({ name: 'status', notice: 'Two-factor sign-in is off.' });
          }}
          onCancel={() => setView({ name: 'status' })}
        />
      ) : null}
    </div>
  );
}
