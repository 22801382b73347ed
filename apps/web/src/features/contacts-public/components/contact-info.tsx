import type { Contact } from '@opp/contracts';
import { useState } from 'react';
import { ChevronLeftIcon, ChevronRightIcon, InfoIcon } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import { useDialog } from '@/hooks/use-dialog';
import { externalUrl } from '@/utils/links';
import { useContacts } from '../api/get-contacts';

/** The info icon beside the town heading and the Contact Info modal it opens (spec §2). */
export function ContactInfoButton({ clientId, townName }: { clientId: number; townName: string }) {
  const { openerRef, open, show, close } = useDialog();
  return (
    <>
      <button
        ref={openerRef}
        type="button"
        className="opp-icon-button"
        aria-label={`Contact information for ${townName}`}
        aria-haspopup="dialog"
        onClick={show}
      >
        <InfoIcon size={28} />
      </button>
      <Modal open={open} onClose={close} title="Contact Info">
        <ContactCarousel clientId={clientId} />
      </Modal>
    </>
  );
}

/** One contact at a time with previous/next arrows; no autoplay (spec §2, §9). */
function ContactCarousel({ clientId }: { clientId: number }) {
  const contacts = useContacts(clientId);
  const [index, setIndex] = useState(0);
  if (contacts.isPending) return <p>Loading contacts…</p>;
  if (contacts.isError) return <p>The contact information could not be loaded. Please try again later.</p>;
  const list = contacts.data;
  if (list.length === 0) return <p>No contact information has been published for this municipality.</p>;
  const at = Math.min(index, list.length - 1);
  const c = list[at]!;
  const many = list.length > 1;
  return (
    <div className="opp-carousel" aria-roledescription="carousel" aria-label="Contacts">
      <ContactSlide contact={c} position={many ? `${at + 1} of ${list.length}` : null} />
      {many ? (
        <div className="opp-carousel__controls">
          <button
            type="button"
            className="usa-button usa-button--outline opp-carousel__arrow"
            aria-label="Previous contact"
            onClick={() => setIndex((at - 1 + list.length) % list.length)}
          >
            <ChevronLeftIcon />
          </button>
          <p className="opp-carousel__pos" aria-live="polite">
            Contact {at + 1} of {list.length}
          </p>
          <button
            type="button"
            className="usa-button usa-button--outline opp-carousel__arrow"
            aria-label="Next contact"
            onClick={() => setIndex((at + 1) % list.length)}
          >
            <ChevronRightIcon />
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** Each field only when present (spec §2). */
function ContactSlide({ contact: c, position }: { contact: Contact; position: string | null }) {
  const home = externalUrl(c.ContactUrl);
  const tel = c.Telephone.replace(/[^0-9+]/g, '');
  return (
    <div className="opp-contact" role="group" aria-roledescription="slide" aria-label={position ?? c.Title}>
      {c.Title ? <h3 className="opp-contact__title">{c.Title}</h3> : null}
      <dl className="opp-contact__fields">
        {home ? (
          <div>
            <dt>Home URL</dt>
            <dd>
              <a href={home} target="_blank" rel="noopener noreferrer">
                {c.ContactUrl}
                <span className="opp-visually-hidden"> (opens in a new tab)</span>
              </a>
            </dd>
          </div>
        ) : null}
        {c.HoursOfOperation ? (
          <div>
            <dt>Hours of Operation</dt>
            <dd className="opp-prewrap">{c.HoursOfOperation}</dd>
          </div>
        ) : null}
        {c.Telephone ? (
          <div>
            <dt>Telephone</dt>
            <dd>{tel ? <a href={`tel:${tel}`}>{c.Telephone}</a> : c.Telephone}</dd>
          </div>
        ) : null}
        {c.ContactEmail ? (
          <div>
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${c.ContactEmail}`}>{c.ContactEmail}</a>
            </dd>
          </div>
        ) : null}
        {c.FreeFormMessage ? (
          <div>
            <dt>Additional Info</dt>
            <dd className="opp-prewrap">{c.FreeFormMessage}</dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}
