import { useEffect } from 'react';

/** Each page gets its own title (WCAG 2.4.2), ending with the portal's name. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} | Online Property Portal` : 'Online Property Portal';
  }, [title]);
}
