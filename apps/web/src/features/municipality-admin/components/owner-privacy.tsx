import { useId } from 'react';
import type { PublicClient } from '@opp/contracts';

/**
 * The town's owner privacy settings, read-only: the provider sets them (provider console), the town's
 * Super Administrator sees what the public is shown (issue 39).
 */
export function OwnerPrivacy({ client }: { client: PublicClient }) {
  const id = useId();
  return (
    <section className="opp-admin-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="margin-top-0">
        Owner privacy
      </h2>
      <dl className="opp-record-meta">
        <div>
          <dt>Owner names</dt>
          <dd>
            {client.PublishOwnerNames
              ? 'Published'
              : 'Withheld: no owner name or mailing address is shown, exported or searchable'}
          </dd>
        </div>
        <div>
          <dt>Owner name search</dt>
          <dd>
            {client.PublishOwnerNames && client.OwnerNameSearch
              ? 'Allowed'
              : 'Off: searching for an owner’s name finds nothing'}
          </dd>
        </div>
      </dl>
      <p className="usa-hint">Your portal provider changes these settings.</p>
    </section>
  );
}
