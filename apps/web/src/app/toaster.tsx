import { createPortal } from 'react-dom';
import { Toaster } from 'react-hot-toast';

/**
 * react-hot-toast's defaults are the spec's toast timings (§9): 4 s blank/error, 2 s success, 20 at most.
 * Toasts sit above an open modal (USWDS puts its wrapper at z-index 99999): a save's "Admin saved" or
 * "An error occured" must be seen while the dialog is still up. They live in their own element of
 * <body>, which an open modal leaves live (components/ui/modal.tsx), so they are read out too.
 */
export function AppToaster() {
  return createPortal(
    <div data-modal-keeps-live="">
      <Toaster position="top-center" containerClassName="opp-toaster" containerStyle={{ zIndex: 100000 }} />
    </div>,
    document.body,
  );
}
