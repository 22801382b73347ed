import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '@opp/contracts';
import { logout } from '@/features/auth/api/logout';
import { providerKeys } from '../api/query-keys';
import { ClientsPanel } from './clients-panel';
import { ConsoleHeader } from './console-header';
import { ProviderAdminsPanel } from './provider-admins-panel';
import '../provider-console.css';
import { SkipNav } from '@/components/ui/skip-nav';

export interface ProviderConsoleProps {
  user: User;
  providerName: string;
  /** The account security page, linked from the header. */
  securityHref?: string;
}

/** The signed-in provider admin's console: clients (with roll publishing) and provider administrators. */
export function ProviderConsole({ user, providerName, securityHref }: ProviderConsoleProps) {
  const queryClient = useQueryClient();
  const [loggingOut, setLoggingOut] = useState(false);

  const handleLogout = async () => {
    setLoggingOut(true);
    await logout();
    // Nothing of the console stays in memory for whoever uses this browser next.
    queryClient.removeQueries({ queryKey: providerKeys.all });
  };

  return (
    <div className="opp-console">
      <SkipNav />
      <ConsoleHeader
        providerName={providerName}
        username={user.Username}
        loggingOut={loggingOut}
        onLogout={() => void handleLogout()}
        securityHref={securityHref}
      />
      <main id="main-content" tabIndex={-1} className="opp-console__main grid-container">
        <h1 className="margin-top-4">Provider console</h1>
        <div className="grid-row grid-gap-4">
          <div className="grid-col-12 desktop:grid-col-8">
            <ClientsPanel />
          </div>
          <div className="grid-col-12 desktop:grid-col-4">
            <ProviderAdminsPanel providerName={providerName} />
          </div>
        </div>
      </main>
    </div>
  );
}
