import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import '../municipality-admin.css';
import { SkipNav } from '@/components/ui/skip-nav';

export interface AdminLayoutProps {
  children: ReactNode;
  /** Signed-in username for the header; null on the login page. */
  username: string | null;
  onLogout: () => void;
  searchHref: string;
  /** The account security page (two-factor sign-in), linked while someone is signed in. */
  securityHref?: string;
}

/** The municipality admin's own header (username, Log out, back to search) around the page. */
export function AdminLayout({ children, username, onLogout, searchHref, securityHref }: AdminLayoutProps) {
  return (
    <div className="opp-admin-page">
      <SkipNav />
      <header className="opp-admin-header">
        <div className="opp-admin-header__inner">
          <Link className="opp-admin-header__title" to={paths.home.getHref()}>
            Online Property Portal
          </Link>
          <nav aria-label="Admin" className="opp-admin-header__nav">
            <Link to={searchHref}>Back to search</Link>
            {username ? (
              <>
                <span className="opp-admin-header__user">
                  Signed in as <strong>{username}</strong>
                </span>
                {securityHref ? <Link to={securityHref}>Account security</Link> : null}
                <button
                  type="button"
                  className="usa-button usa-button--outline usa-button--inverse"
                  onClick={onLogout}
                >
                  Log out
                </button>
              </>
            ) : null}
          </nav>
        </div>
      </header>
      {children}
    </div>
  );
}
