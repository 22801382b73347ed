import { useState, type ReactNode } from 'react';
import { SkipNav } from '@/components/ui/skip-nav';
import { logout } from '@/features/auth/api/logout';
import { ConsoleHeader } from './console-header';
import '../provider-console.css';

export interface ConsoleFrameProps {
  providerName: string;
  username: string;
  /** The account security page, linked from the header. */
  securityHref?: string;
  children: ReactNode;
}

/** Every signed-in provider page: skip link, the console header with logout, and the main landmark. */
export function ConsoleFrame({ providerName, username, securityHref, children }: ConsoleFrameProps) {
  const [loggingOut, setLoggingOut] = useState(false);

  const handleLogout = async () => {
    setLoggingOut(true);
    await logout();
    setLoggingOut(false);
  };

  return (
    <div className="opp-console">
      <SkipNav />
      <ConsoleHeader
        providerName={providerName}
        username={username}
        loggingOut={loggingOut}
        onLogout={() => void handleLogout()}
        securityHref={securityHref}
      />
      <main id="main-content" tabIndex={-1} className="opp-console__main grid-container-widescreen">
        {children}
      </main>
    </div>
  );
}
