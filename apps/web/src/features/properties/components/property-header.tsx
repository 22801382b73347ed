import type { RollDates } from '@opp/contracts';
import type { ReactNode } from 'react';
import { OWNER_WITHHELD } from '@opp/contracts/addresses';
import { MapIcon } from '@/components/ui/icons';
import { OwnerAddress } from '@/components/ui/owner-address';
import { formatDate, formatLocation } from '@/utils/format';
import { rollDatesText } from '@/utils/roll-dates';
import { externalUrl } from '@/utils/links';
import type { PropertyDetail } from '../api/get-property';
import { totalDue } from '../utils/total-due';
import { ImageCarousel } from './image-carousel';

/**
 * Spec §2 record header: address with apartment and a map-link icon when GISLink is set, owners with
 * their addresses, photos, and map/lot, book/page, account and last updated (the record's own date),
 * each left out when the record gives none (never an empty label), then what the town's roll dates from.
 */
export function PropertyHeader({ p, dates }: { p: PropertyDetail; dates?: Partial<RollDates> | null }) {
  const address = formatLocation(p) || `Account ${p.Account}`;
  const gis = externalUrl(p.GISLink);
  const bookPage = [p.Book, p.Page].filter(Boolean).join(' / ');
  const due = totalDue(p);
  // A label shows with its value or not at all (issue 48: never an empty "Last Updated").
  const meta = (
    [
      ['Map/Lot', p.MapLot],
      ['Book/Page', bookPage],
      ['Account', p.Account],
      ['Last Updated', formatDate(p.DateUpdated)],
    ] as const
  ).filter(([, value]) => value.trim() !== '');
  const asOf = rollDatesText(dates ?? p);
  return (
    <RecordHead address={address} gis={gis} aside={<ImageCarousel images={p.Images} subject={address} />}>
      {due ? (
        <p className="opp-due">
          Total due <strong>{due.amount}</strong>
          {due.asOf ? ` as of ${due.asOf}` : ''}
        </p>
      ) : null}
      {p.SuppressOwner ? (
        <p className="opp-owners">{OWNER_WITHHELD}</p>
      ) : p.Owners.length > 0 ? (
        <div className="opp-owners">
          <h2 className="opp-visually-hidden">Owners</h2>
          {p.Owners.map((o, i) => (
            <OwnerAddress key={i} owner={o} className="opp-owner" />
          ))}
        </div>
      ) : null}
      <dl className="opp-record-meta">
        {meta.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {asOf ? <p className="opp-asof">{asOf}</p> : null}
    </RecordHead>
  );
}

/**
 * A record's head: its address as the page's h1 (with a map link when it has one), `children` below it
 * and `aside` (the photos) beside. The server paints it with the address alone before the scripts run
 * (src/painted-page.tsx): it is the page's largest element when the record has no photo.
 */
export function RecordHead({
  address,
  gis = null,
  children,
  aside,
}: {
  address: string;
  gis?: string | null;
  children?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <div className="opp-record-head">
      <div className="opp-record-head__main">
        <div className="opp-record-head__title">
          <h1 className="opp-record-head__address">{address}</h1>
          {gis ? (
            <a className="opp-icon-button" href={gis} target="_blank" rel="noopener noreferrer">
              <MapIcon size={28} />
              <span className="opp-visually-hidden">Map of {address} (opens in a new tab)</span>
            </a>
          ) : null}
        </div>
        {children}
      </div>
      {aside}
    </div>
  );
}
