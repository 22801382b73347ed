import { useState } from 'react';

/**
 * How many times `open` has turned true. A modal's form keyed by it starts fresh on every opening yet
 * stays on screen, unchanged, while the modal fades out.
 */
export function useOpenCount(open: boolean): number {
  const [state, setState] = useState({ open, count: open ? 1 : 0 });
  if (state.open !== open) {
    // Adjusting state while rendering (React's documented pattern for deriving from a changed prop).
    setState({ open, count: open ? state.count + 1 : state.count });
  }
  return open && state.open !== open ? state.count + 1 : state.count;
}
