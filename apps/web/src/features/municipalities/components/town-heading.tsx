import type { PublicClient } from '@opp/contracts';
import {
  bannerLabel,
  BANNER_SOURCES,
  fileImageUrl,
  imageAtWidthUrl,
  townName,
} from '@opp/contracts/image-sizes';
import type { ReactNode } from 'react';

export interface TownHeadingProps {
  client: PublicClient;
  /** The search page's h1; on a record the address is the h1 and the town a paragraph. */
  as?: 'h1' | 'p';
  /** Controls beside the heading (the contact info button). */
  children?: ReactNode;
}

export { townName };

/**
 * Spec §2: the municipality's banner image, or the heading "City, State" when it has none. The server
 * paints the same heading into index.html before the scripts run (staticTownPage in
 * apps/server/src/plugins/web-app.ts): change one, change the other, or the page shifts when React renders.
 */
export function TownHeading({ client, as: Tag = 'h1', children }: TownHeadingProps) {
  const label = bannerLabel(client);
  return (
    <div className={`opp-town${client.BannerImage ? ' opp-town--banner' : ''}`}>
      <Tag className="opp-town__heading">
        {client.BannerImage ? (
          // A phone gets a copy its size (BANNER_SOURCES); the <source>s come before the <img>, whose
          // src would otherwise start the full banner's download first.
          <picture>
            {BANNER_SOURCES.map((s) => (
              <source
                key={s.width}
                media={s.media}
                srcSet={imageAtWidthUrl(fileImageUrl(client.BannerImage!), s.width)}
              />
            ))}
            <img
              className="opp-town__banner"
              src={fileImageUrl(client.BannerImage)}
              alt={label}
              fetchPriority="high"
            />
          </picture>
        ) : (
          townName(client)
        )}
      </Tag>
      {children ? <div className="opp-town__actions">{children}</div> : null}
    </div>
  );
}
