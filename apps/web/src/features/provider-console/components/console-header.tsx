import { Link } from 'react-router';
import { paths } from '@/config/paths';

export interface ConsoleHeaderProps {
  providerName: string;
  username: string;
  onLogout: () => void;
  loggingOut?: boolean;
  /** The account security page (two-factor sign-in); no link when absent. */
  securityHref?: string;
}

/** Spec §2: the console's own header: title link home, the signed-in username, Log out. */
export function ConsoleHeader({
  providerName,
  username,
  onLogout,
  loggingOut = false,
  securityHref,
}: ConsoleHeaderProps) {
  return (
    <header className="opp-console-header">
      <div className="opp-console-header__inner">
        <Link className="opp-console-header__title" to={paths.home.getHref()}>
          {providerName}
        </Link>
        <div className="opp-console-header__user">
          <span>
            Signed in as <strong>{username}</strong>
          </span>
          {securityHref ? (
            <Link className="opp-console-header__link" to={securityHref}>
              Account security
            </Link>
          ) : null}
          <button
            type="button"
            className="usa-button usa-button--outline usa-button--inverse margin-right-0"
            disabled={loggingOut}
            onClick={onLogout}
          >
            Log out
          </button>
        </div>
      </div>
    </header>
  );
}
