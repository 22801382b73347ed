import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/** Spec §9: the modal leaves in 150 ms (the USWDS wrapper's own opacity transition). */
export const MODAL_EXIT_MS = 150;

export interface ModalProps {
  open: boolean;
  /** Called on Escape, the close button and a click on the dimmed backdrop. */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons under the body (Save, Cancel…). */
  footer?: ReactNode;
  /** USWDS large modal (wider form), or the whole screen (a photo lightbox, dark). */
  size?: 'default' | 'lg' | 'full';
  /** Label for the × button; defaults to "Close". */
  closeLabel?: string;
}

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/** Open modals, innermost last: only the top one reacts to Escape and Tab. */
const stack: HTMLElement[] = [];

/**
 * An accessible dialog in USWDS markup without USWDS JavaScript: rendered into <body>, everything
 * else on the page is made inert while it is open, Tab cycles inside it, Escape and a backdrop click
 * close it, and focus returns to whatever opened it. Closing fades out over 150 ms before unmounting.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  footer,
  size = 'default',
  closeLabel = 'Close',
}: ModalProps) {
  const [mounted, setMounted] = useState(open);
  const [visible, setVisible] = useState(open);
  const titleId = useId();
  const wrapperRef = useRef<HTMLDivElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  const pressStartedOnBackdrop = useRef(false);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    if (open) {
      setMounted(true);
      setVisible(true);
      return;
    }
    setVisible(false);
    const timer = setTimeout(() => setMounted(false), MODAL_EXIT_MS);
    return () => clearTimeout(timer);
  }, [open]);

  // Focus, inertness and scroll lock follow `open` (not the fade): the page is usable again the
  // moment the dialog starts to leave. A passive effect, because React restores the focus it saw
  // before a commit after layout-effect cleanups run, which would undo giving focus back.
  useEffect(() => {
    if (!open || !mounted) return;
    const wrapper = wrapperRef.current;
    const dialog = dialogRef.current;
    if (!wrapper || !dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    stack.push(wrapper);

    const madeInert: HTMLElement[] = [];
    for (const el of Array.from(document.body.children)) {
      // Toasts stay live above the dialog (app/provider.tsx).
      if (el === wrapper || !(el instanceof HTMLElement) || el.hasAttribute('inert')) continue;
      if (el.hasAttribute('data-modal-keeps-live')) continue;
      el.setAttribute('inert', '');
      madeInert.push(el);
    }
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';

    const first = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(dialog)[0];
    (first ?? dialog).focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (stack[stack.length - 1] !== wrapper) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables(dialog);
      if (items.length === 0) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const firstItem = items[0]!;
      const lastItem = items[items.length - 1]!;
      const active = document.activeElement;
      if (event.shiftKey && (active === firstItem || !dialog.contains(active))) {
        event.preventDefault();
        lastItem.focus();
      } else if (!event.shiftKey && (active === lastItem || !dialog.contains(active))) {
        event.preventDefault();
        firstItem.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown, true);

    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      const at = stack.lastIndexOf(wrapper);
      if (at >= 0) stack.splice(at, 1);
      for (const el of madeInert) el.removeAttribute('inert');
      document.body.style.overflow = previousOverflow;
      if (opener && opener.isConnected) opener.focus();
    };
  }, [open, mounted]);

  if (!mounted) return null;

  return createPortal(
    <div
      ref={wrapperRef}
      className={`usa-modal-wrapper ${visible ? 'is-visible' : 'is-hidden'}${size === 'full' ? ' opp-modal--full' : ''}`}
      data-testid="modal"
    >
      <div
        className="usa-modal-overlay"
        onMouseDown={(e) => {
          pressStartedOnBackdrop.current = e.target === e.currentTarget;
        }}
        onClick={(e) => {
          // A drag that starts inside the dialog (selecting text) and ends on the backdrop is not a click on it.
          if (e.target === e.currentTarget && pressStartedOnBackdrop.current) onCloseRef.current();
          pressStartedOnBackdrop.current = false;
        }}
      >
        <div
          ref={dialogRef}
          className={`usa-modal${size === 'lg' ? ' usa-modal--lg' : ''}`}
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          tabIndex={-1}
        >
          <div className="usa-modal__content">
            <div className="usa-modal__main">
              <h2 className="usa-modal__heading" id={titleId}>
                {title}
              </h2>
              {children}
              {footer ? <div className="usa-modal__footer">{footer}</div> : null}
            </div>
            <button
              type="button"
              className="usa-button usa-modal__close"
              aria-label={closeLabel}
              onClick={() => onCloseRef.current()}
            >
              <span aria-hidden="true" style={{ fontSize: '2rem', lineHeight: 1 }}>
                ×
              </span>
            </button>
          </div>
        </div>
      </div>
    </div>,
    document.body,
  );
}

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('inert') && el.getAttribute('aria-hidden') !== 'true' && el.tabIndex >= 0,
  );
}
