import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { ChevronLeftIcon, ChevronRightIcon, FullscreenIcon, HousePlaceholder } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import { useDialog } from '@/hooks/use-dialog';
import { assetUrl } from '@/utils/links';

export interface ImageCarouselProps {
  images: string[];
  /** What the photos show, for their text alternatives ("12 Main St"). */
  subject: string;
}

/** A horizontal swipe this long (px) moves to the next or previous photo. */
const SWIPE_PX = 50;

/**
 * Spec §2: the record's photos, one at a time, with a full-screen viewer: a lightbox showing the photo
 * as large as the screen allows, with the arrow keys and swipes moving through the photos, Escape
 * closing it and focus kept inside (the Modal's).
 */
export function ImageCarousel({ images, subject }: ImageCarouselProps) {
  const [index, setIndex] = useState(0);
  const { openerRef, open: viewerOpen, show: showViewer, close: closeViewer } = useDialog();
  const swipeFrom = useRef<number | null>(null);
  const count = images.length;
  // Left and right arrows move through the photos wherever focus is inside the open viewer.
  useEffect(() => {
    if (!viewerOpen || count < 2) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      const step = e.key === 'ArrowLeft' ? -1 : 1;
      setIndex((i) => (Math.min(i, count - 1) + step + count) % count);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [viewerOpen, count]);
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
  const onPointerDown = (e: PointerEvent) => {
    swipeFrom.current = e.clientX;
  };
  const onPointerUp = (e: PointerEvent) => {
    const from = swipeFrom.current;
    swipeFrom.current = null;
    if (from === null || !many) return;
    if (e.clientX - from > SWIPE_PX) prev();
    else if (from - e.clientX > SWIPE_PX) next();
  };

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
      <Modal open={viewerOpen} onClose={closeViewer} title={alt(at)} size="full">
        <div
          className="opp-lightbox"
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (swipeFrom.current = null)}
        >
          <img className="opp-lightbox__img" src={assetUrl(images[at]!)} alt={alt(at)} draggable={false} />
          {controls}
        </div>
      </Modal>
    </div>
  );
}
