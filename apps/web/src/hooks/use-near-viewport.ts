import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element has come within 200 px of the viewport (and stays true from then on),
 * or is about to be printed: for work worth doing only when someone may look at it, like a map at the
 * foot of a page. True at once where the browser cannot tell.
 */
export function useNearViewport(ref: RefObject<Element | null>): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(element);
    const printing = () => setNear(true);
    window.addEventListener('beforeprint', printing);
    return () => {
      observer.disconnect();
      window.removeEventListener('beforeprint', printing);
    };
  }, [ref, near]);
  return near;
}
