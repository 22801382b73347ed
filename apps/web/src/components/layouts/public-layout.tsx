import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { SkipNav } from '@/components/ui/skip-nav';

export const PORTAL_TITLE = 'Online Property Portal';

export interface PublicLayoutProps {
  children: ReactNode;
  /** The local government the records belong to ("Town of Harrison"); spec §1 footer. */
  owner?: string | null;
  /** The town whose Admin link the header shows (search and record pages). */
  town?: { state: string; city: string } | null;
}

/** A public page's main content, where the skip link leads (also painted by the server: painted-page.tsx). */
export function PublicMain({ children }: { children: ReactNode }) {
  return (
    <main id="main-content" tabIndex={-1} className="opp-main">
      {children}
    </main>
  );
}

/**
 * Every public page: skip link, the portal title linking home, the town's Admin link when there is a
 * town, and the §1 footer ("© {year} {local government}. All rights reserved.").
 */
export function PublicLayout({ children, owner, town }: PublicLayoutProps) {
  const year = new Date().getFullYear();
  return (
    <div className="opp-page">
      <SkipNav />
      <header className="opp-header">
        <div className="opp-header__inner">
          <Link className="opp-header__title" to={paths.home.getHref()}>
            {PORTAL_TITLE}
          </Link>
          <nav aria-label="Site" className="opp-header__nav">
            <ul className="opp-header__links">
              <li>
                <Link to={paths.home.getHref()}>Home</Link>
              </li>
              {town ? (
                <li>
                  <Link to={paths.municipalityAdmin.getHref(town.state, town.city)}>Admin</Link>
                </li>
              ) : null}
            </ul>
          </nav>
        </div>
      </header>
      <PublicMain>{children}</PublicMain>
      <footer className="opp-footer">
        <div className="opp-footer__inner">
          © {year} {owner?.trim() || 'Local Government'}. All rights reserved.
        </div>
      </footer>
    </div>
  );
}
