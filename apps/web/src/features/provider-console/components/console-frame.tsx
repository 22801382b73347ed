import { useState, type ReactNode } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { SkipNav } from '@/components/ui/skip-nav';
import { logout } from '@/features/auth/api/logout';
import { ConsoleHeader } from './console-header';
import '../provider-console.css';

export interface ConsoleFrameProps {
  providerName: string;
  username: string;
  /** The account security page, linked from the header. */
  securityHref?: string;
  /** The cached answers of this page, forgotten on logout. */
  forget: QueryKey;
  children: ReactNode;
}

/** Every signed-in provider page: skip link, the console header with logout, and the main landmark. */
export function ConsoleFrame({ providerName, username, securityHref, forget, children }: ConsoleFrameProps) {
  const queryClient = useQueryClient();
  const [loggingOut, setLoggingOut] = useState(false);

  const handleLogout = async () => {
    setLoggingOut(true);
    await logout();
    // Nothing of this account stays in memory for whoever uses this browser next.
    queryClient.removeQueries({ queryKey: forget });
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
      <main id="main-content" tabIndex={-1} className="opp-console__main grid-container">
        {children}
      </main>
    </div>
  );
}
