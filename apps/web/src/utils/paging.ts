/*
 * Page-bar rules of spec §5: a typed page is accepted only between 1 and the number of pages, otherwise
 * the input reverts to the current page; first/previous do nothing on page 1, next/last nothing on the
 * last page.
 */

export type PageAction = 'first' | 'previous' | 'next' | 'last';

/** The page to show after `action`, or null when the action is ignored. */
export function pageAfter(action: PageAction, current: number, pages: number): number | null {
  const last = Math.max(1, pages);
  switch (action) {
    case 'first':
      return current > 1 ? 1 : null;
    case 'previous':
      return current > 1 ? current - 1 : null;
    case 'next':
      return current < last ? current + 1 : null;
    case 'last':
      return current < last ? last : null;
  }
}

/**
 * The page a typed value asks for, or null when it is not a whole number in 1..pages: "-3", "2.5" and
 * "3a" are not pages (the box reverts), never page 3, 25 or 3. Thousands separators are allowed.
 */
export function parsePageInput(input: string, pages: number): number | null {
  const text = input.trim().replace(/,/g, '');
  if (!/^\d{1,9}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= Math.max(1, pages) ? n : null;
}

/** "Showing X to Y of N results" numbers for a page (X = Y = 0 when there are none). */
export function shownRange(page: number, pageSize: number, total: number): { from: number; to: number } {
  if (total <= 0) return { from: 0, to: 0 };
  const from = Math.min(total, (page - 1) * pageSize + 1);
  return { from, to: Math.min(total, page * pageSize) };
}
