import { useCallback, useRef, useState } from 'react';

/**
 * Open/close state for a dialog plus the control that opens it. Closing puts focus back on that control
 * a frame later: the shared Modal returns focus in a layout-effect cleanup, and React's own post-commit
 * focus restore then moves it back into the fading dialog, which leaves focus on <body> once the dialog
 * is gone. Focusing after the commit makes the return stick whichever way the dialog was closed.
 */
export function useDialog<T extends HTMLElement = HTMLButtonElement>() {
  const openerRef = useRef<T>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);
  const close = useCallback(() => {
    setOpen(false);
    requestAnimationFrame(() => openerRef.current?.focus());
  }, []);
  return { openerRef, open, show, close };
}
