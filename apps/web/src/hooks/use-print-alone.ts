import { useEffect } from 'react';

/**
 * Printing one part of a page alone: the returned function marks the page with `className` (which the
 * print stylesheet reads to hide everything else) and opens the print dialog; the mark is gone once the
 * dialog closes, or when the part leaves the page.
 */
export function usePrintAlone(className: string): () => void {
  useEffect(() => {
    const done = () => document.body.classList.remove(className);
    window.addEventListener('afterprint', done);
    return () => {
      window.removeEventListener('afterprint', done);
      done();
    };
  }, [className]);
  return () => {
    document.body.classList.add(className);
    window.print();
  };
}
