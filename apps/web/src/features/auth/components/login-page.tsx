import { useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { INVALID_LOGIN_MESSAGE, type User } from '@opp/contracts';
import { ApiError } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';
import { login } from '../api/login';
import { revokeToken } from '../api/logout';

export interface LoginPageProps {
  /** "Harrison, Maine", or "{provider} Admin Login" in provider mode (spec §2). */
  heading: ReactNode;
  /** Who may use the area behind this login; anyone else is told the credentials were wrong (spec §5). */
  canUse: (user: User) => boolean;
  /** Where "Return to search" goes. */
  returnHref: string;
}

/**
 * The login page shared by both admin areas (spec §2): Username, Password, Enter submits, Log In,
 * Return to search. A wrong password, an unknown user and an account that may not use this area all
 * read "Username or password was incorrect". When the account has two-factor sign-in on, a code field
 * appears after the password was accepted.
 */
export function LoginPage({ heading, canUse, returnHref }: LoginPageProps) {
  const id = useId();
  const [identity, setIdentity] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needCode, setNeedCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  const submit = async () => {
    setError(null);
    if (!identity.trim() || !password) {
      setError(INVALID_LOGIN_MESSAGE);
      return;
    }
    setPending(true);
    try {
      const res = await login({
        Identity: identity,
        Password: password,
        ...(needCode ? { Code: code } : {}),
      });
      if (res.Status === 401 || !canUse(res.user)) {
        void revokeToken(res.accessToken);
        setError(INVALID_LOGIN_MESSAGE);
        return;
      }
      authStore.set(res.user, res.accessToken);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'two_factor_required') {
        setNeedCode(true);
        setError(err.message);
        requestAnimationFrame(() => codeRef.current?.focus());
      } else if (err instanceof ApiError && err.status === 401) setError(INVALID_LOGIN_MESSAGE);
      else setError(err instanceof Error ? err.message : 'Sign-in failed. Try again.');
    } finally {
      setPending(false);
    }
  };

  return (
    <main id="main-content" tabIndex={-1} className="grid-container padding-y-6 opp-login">
      <div className="grid-row flex-justify-center">
        <div className="grid-col-12 tablet:grid-col-8 desktop:grid-col-5">
          <h1 className="margin-bottom-1">{heading}</h1>
          <form
            className="usa-form usa-form--large"
            noValidate
            aria-label="Log in"
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <div role="alert" aria-live="assertive">
              {error ? (
                <div className="usa-alert usa-alert--error usa-alert--slim margin-top-2">
                  <div className="usa-alert__body">
                    <p className="usa-alert__text">{error}</p>
                  </div>
                </div>
              ) : null}
            </div>
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
            {needCode ? (
              <>
                <label className="usa-label" htmlFor={`${id}-code`}>
                  Authentication code
                </label>
                <input
                  ref={codeRef}
                  id={`${id}-code`}
                  className="usa-input"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                />
              </>
            ) : null}
            <div className="margin-top-3">
              <button type="submit" className="usa-button" disabled={pending}>
                {pending ? 'Logging in…' : 'Log In'}
              </button>
              <Link className="usa-button usa-button--outline" to={returnHref}>
                Return to search
              </Link>
            </div>
          </form>
        </div>
      </div>
    </main>
  );
}
