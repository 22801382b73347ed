import { useState } from 'react';
import { ChevronLeftIcon, ChevronRightIcon, FullscreenIcon, HousePlaceholder } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import { useDialog } from '@/hooks/use-dialog';
import { assetUrl } from '@/utils/links';

export interface ImageCarouselProps {
  images: string[];
  /** What the photos show, for their text alternatives ("12 Main St"). */
  subject: string;
}

/** Spec §2: the record's photos, one at a time, with a full-screen viewer. */
export function ImageCarousel({ images, subject }: ImageCarouselProps) {
  const [index, setIndex] = useState(0);
  const { openerRef, open: viewerOpen, show: showViewer, close: closeViewer } = useDialog();
  if (images.length === 0) {
    return (
      <div className="opp-photos opp-photos--none">
        <HousePlaceholder className="opp-photos__img" />
      </div>
    );
  }
  const at = Math.min(index, images.length - 1);
  const many = images.length > 1;
  const alt = (i: number) => `Photo ${i + 1} of ${images.length} of ${subject}`;
  const prev = () => setIndex((at - 1 + images.length) % images.length);
  const next = () => setIndex((at + 1) % images.length);
  const controls = (
    <div className="opp-photos__controls">
      {many ? (
        <button type="button" className="opp-photos__arrow" aria-label="Previous photo" onClick={prev}>
          <ChevronLeftIcon />
        </button>
      ) : null}
      <span className="opp-photos__pos" aria-live="polite">
        {many ? `${at + 1} / ${images.length}` : ''}
      </span>
      {many ? (
        <button type="button" className="opp-photos__arrow" aria-label="Next photo" onClick={next}>
          <ChevronRightIcon />
        </button>
      ) : null}
    </div>
  );

  return (
    <div
      className="opp-photos"
      aria-roledescription="carousel"
      aria-label={`Photos of ${subject}`}
      role="region"
    >
      <div className="opp-photos__frame">
        <img className="opp-photos__img" src={assetUrl(images[at]!)} alt={alt(at)} />
        <button
          ref={openerRef}
          type="button"
          className="opp-photos__full"
          aria-label="View photo full screen"
          aria-haspopup="dialog"
          onClick={showViewer}
        >
          <FullscreenIcon />
        </button>
      </div>
      {controls}
      <Modal open={viewerOpen} onClose={closeViewer} title={alt(at)} size="lg">
        <div className="opp-viewer">
          <img className="opp-viewer__img" src={assetUrl(images[at]!)} alt={alt(at)} />
          {controls}
        </div>
      </Modal>
    </div>
  );
}
