import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { INVALID_LOGIN_MESSAGE, type User } from '@opp/contracts';
import { Alert, FormAlert } from '@/components/ui/alert';
import { ApiError } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';
import { login } from '../api/login';
import { revokeToken } from '../api/logout';
import { CodeField } from './code-field';

export interface LoginPageProps {
  /** "Harrison, Maine", or "{provider} Admin Login" in provider mode (spec §2). */
  heading: ReactNode;
  /** Who may use the area behind this login; anyone else is told the credentials were wrong (spec §5). */
  canUse: (user: User) => boolean;
  /** Where "Return to search" goes. */
  returnHref: string;
  /** Said above the form, e.g. that the session expired and signing in saves what was typed. */
  notice?: string;
}

/**
 * The login page shared by both admin areas (spec §2): Username, Password, Enter submits, Log In,
 * Return to search. A wrong password, an unknown user and an account that may not use this area all
 * read "Username or password was incorrect". When the account has two-factor sign-in on, the server
 * answers 401 two_factor_required and a second step asks for the code (or a recovery code); the
 * username and password are kept and sent again with it.
 */
export function LoginPage({ heading, canUse, returnHref, notice }: LoginPageProps) {
  const id = useId();
  const [identity, setIdentity] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [codeKind, setCodeKind] = useState<'totp' | 'recovery'>('totp');
  const [error, setError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const codeStepRef = useRef<HTMLHeadingElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  // After React has rendered the new step: a step change moves focus to its heading (WCAG 2.4.3).
  const focusLater = (el: () => HTMLElement | null, select = false) =>
    requestAnimationFrame(() => {
      const target = el();
      target?.focus();
      if (select && target instanceof HTMLInputElement) target.select();
    });

  // Entering the code step moves focus to its heading once that heading exists: a single animation
  // frame after the state change is not always enough for React to have rendered it on a busy device.
  const enteredCodeStep = useRef(false);
  useEffect(() => {
    if (step === 'code' && !enteredCodeStep.current) codeStepRef.current?.focus();
    enteredCodeStep.current = step === 'code';
  }, [step]);

  const backToPassword = (message: string | null) => {
    setStep('password');
    setCode('');
    setCodeError(null);
    setError(message);
    focusLater(() => headingRef.current);
  };

  const submit = async () => {
    setError(null);
    setCodeError(null);
    if (!identity.trim() || !password) {
      setError(INVALID_LOGIN_MESSAGE);
      return;
    }
    const sendCode = step === 'code';
    if (sendCode && !code.trim()) {
      setCodeError(
        codeKind === 'totp' ? 'Enter the 6-digit code from your app' : 'Enter one of your recovery codes',
      );
      focusLater(() => codeRef.current);
      return;
    }
    setPending(true);
    try {
      const res = await login({
        Identity: identity,
        Password: password,
        ...(sendCode ? { Code: code } : {}),
      });
      if (res.Status === 401 || !canUse(res.user)) {
        void revokeToken(res.accessToken);
        backToPassword(INVALID_LOGIN_MESSAGE);
        return;
      }
      authStore.set(res.user, res.accessToken);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'two_factor_required') {
        if (sendCode) {
          // A wrong or already used code: say so beside the field and let them type another.
          setCodeError(err.message);
          focusLater(() => codeRef.current, true);
        } else {
          setStep('code');
        }
      } else if (err instanceof ApiError && err.status === 401) backToPassword(INVALID_LOGIN_MESSAGE);
      else {
        const message = err instanceof Error ? err.message : 'Sign-in failed. Try again.';
        if (sendCode) {
          setCodeError(message);
          focusLater(() => codeRef.current);
        } else setError(message);
      }
    } finally {
      setPending(false);
    }
  };

  const switchCodeKind = () => {
    setCodeKind((k) => (k === 'totp' ? 'recovery' : 'totp'));
    setCode('');
    setCodeError(null);
    focusLater(() => codeRef.current);
  };

  return (
    <main id="main-content" tabIndex={-1} className="grid-container padding-y-6 opp-login">
      <div className="grid-row flex-justify-center">
        <div className="opp-login__column">
          <h1 className="margin-bottom-1" ref={headingRef} tabIndex={-1}>
            {heading}
          </h1>
          <form
            className="usa-form usa-form--large"
            noValidate
            aria-label="Log in"
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            {notice ? <Alert type="info" className="margin-top-2" text={notice} /> : null}
            <FormAlert message={error} className="margin-top-2" />
            {step === 'password' ? (
              <>
                <label className="usa-label" htmlFor={`${id}-user`}>
                  Username
                </label>
                <input
                  id={`${id}-user`}
                  className="usa-input"
                  name="username"
                  autoComplete="username"
                  autoCapitalize="none"
                  spellCheck={false}
                  value={identity}
                  onChange={(e) => setIdentity(e.target.value)}
                />
                <label className="usa-label" htmlFor={`${id}-password`}>
                  Password
                </label>
                <input
                  id={`${id}-password`}
                  className="usa-input"
                  type="password"
                  name="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
                <div className="margin-top-3">
                  <button type="submit" className="usa-button" disabled={pending}>
                    {pending ? 'Logging in…' : 'Log In'}
                  </button>
                  <Link className="usa-button usa-button--outline" to={returnHref}>
                    Return to search
                  </Link>
                </div>
              </>
            ) : (
              <>
                <h2 className="margin-top-3 margin-bottom-1" ref={codeStepRef} tabIndex={-1}>
                  Two-factor sign-in
                </h2>
                <p className="margin-y-1">
                  Signing in as <strong>{identity.trim()}</strong>.{' '}
                  {codeKind === 'totp'
                    ? 'Open your authenticator app and enter the code it shows for this portal.'
                    : 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'}
                </p>
                <CodeField
                  id={`${id}-code`}
                  kind={codeKind}
                  label={codeKind === 'totp' ? 'Authentication code' : 'Recovery code'}
                  hint={codeKind === 'totp' ? '6 digits, for example 123456' : 'For example abcde-fghij'}
                  value={code}
                  onChange={setCode}
                  error={codeError}
                  inputRef={codeRef}
                />
                <button
                  type="button"
                  className="usa-button usa-button--unstyled margin-top-1"
                  onClick={switchCodeKind}
                >
                  {codeKind === 'totp' ? 'Use a recovery code instead' : 'Use the code from your app instead'}
                </button>
                <div className="margin-top-3">
                  <button type="submit" className="usa-button" disabled={pending}>
                    {pending ? 'Checking…' : 'Verify and log in'}
                  </button>
                  <button
                    type="button"
                    className="usa-button usa-button--outline"
                    onClick={() => backToPassword(null)}
                  >
                    Cancel
                  </button>
                </div>
              </>
            )}
          </form>
        </div>
      </div>
    </main>
  );
}
