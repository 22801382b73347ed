import type { User } from '@opp/contracts';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { ClientsPanel } from './clients-panel';
import { ConsoleFrame } from './console-frame';
import { ProviderAdminsPanel } from './provider-admins-panel';

export interface ProviderConsoleProps {
  user: User;
  providerName: string;
  /** The account security page, linked from the header. */
  securityHref?: string;
}

/** The signed-in provider admin's console: clients (with roll publishing) and provider administrators. */
export function ProviderConsole({ user, providerName, securityHref }: ProviderConsoleProps) {
  useDocumentTitle(`${providerName} Console`);
  return (
    <ConsoleFrame providerName={providerName} username={user.Username} securityHref={securityHref}>
      <h1 className="margin-top-4">Provider console</h1>
      <div className="grid-row grid-gap-4">
        <div className="grid-col-12 desktop:grid-col-8">
          <ClientsPanel />
        </div>
        <div className="grid-col-12 desktop:grid-col-4">
          <ProviderAdminsPanel providerName={providerName} />
        </div>
      </div>
    </ConsoleFrame>
  );
}
