import type { PublicClient } from '@opp/contracts';
import type { ReactNode } from 'react';
import { fileImageUrl } from '@/utils/links';

export interface TownHeadingProps {
  client: PublicClient;
  /** The search page's h1; on a record the address is the h1 and the town a paragraph. */
  as?: 'h1' | 'p';
  /** Controls beside the heading (the contact info button). */
  children?: ReactNode;
}

export const townName = (c: PublicClient) => `${c.City}, ${c.StateProvince}`;

/** Spec §2: the municipality's banner image, or the heading "City, State" when it has none. */
export function TownHeading({ client, as: Tag = 'h1', children }: TownHeadingProps) {
  const label = client.Description?.trim()
    ? `${client.Description.trim()}, ${client.StateProvince}`
    : townName(client);
  return (
    <div className={`opp-town${client.BannerImage ? ' opp-town--banner' : ''}`}>
      <Tag className="opp-town__heading">
        {client.BannerImage ? (
          <img
            className="opp-town__banner"
            src={fileImageUrl(client.BannerImage)}
            alt={label}
            fetchPriority="high"
          />
        ) : (
          townName(client)
        )}
      </Tag>
      {children ? <div className="opp-town__actions">{children}</div> : null}
    </div>
  );
}
