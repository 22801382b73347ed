import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface ScrollRegionProps {
  /** What the region holds ("Tax details"), for the keyboard stop it becomes when it scrolls. */
  label: string;
  className?: string;
  children: ReactNode;
}

/**
 * A wide table's own horizontal scroll area: when the table is wider than the screen it scrolls here,
 * never off the page. Only while it actually overflows is it a keyboard stop (a named region), so
 * keyboard users can scroll it and nobody tabs through an empty stop otherwise.
 */
export function ScrollRegion({ label, className, children }: ScrollRegionProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const check = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    const observer = new ResizeObserver(check);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    // No check() here: the observer reports each element's size once it is laid out, whereas reading
    // scrollWidth now would force the whole page's layout inside React's commit.
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className={`opp-scroll${className ? ` ${className}` : ''}`}
      {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': `${label} (scrolls sideways)` } : {})}
    >
      {children}
    </div>
  );
}
