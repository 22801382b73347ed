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
 * paints it into index.html before the scripts run (src/painted-page.tsx): the banner, the page's
 * largest element, is shown before the app has started.
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

/** A town page's body (a record's is marked), its heading first; painted too (src/painted-page.tsx). */
export function TownPage({ record = false, children }: { record?: boolean; children: ReactNode }) {
  return <div className={`opp-container${record ? ' opp-record' : ''}`}>{children}</div>;
}
