import { useId, useState } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '@/components/ui/icons';
import { formatCount } from '@/utils/format';
import { pageAfter, parsePageInput, type PageAction } from '@/utils/paging';

export interface PageBarProps {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}

/**
 * Spec §2/§5 page bar: « ‹ [n] of N › ». A typed page outside 1..N reverts to the current page;
 * first/previous do nothing on page 1 and next/last nothing on the last page (those buttons are
 * disabled there, which says the same thing to assistive technology).
 */
export function PageBar({ page, pages, onPage }: PageBarProps) {
  const id = useId();
  const [draft, setDraft] = useState(String(page));
  const [shownPage, setShownPage] = useState(page);
  if (shownPage !== page) {
    setShownPage(page);
    setDraft(String(page));
  }
  const total = Math.max(1, pages);

  const go = (action: PageAction) => {
    const next = pageAfter(action, page, total);
    if (next !== null) onPage(next);
  };
  const commit = () => {
    const next = parsePageInput(draft, total);
    if (next === null || next === page) setDraft(String(page));
    else onPage(next);
  };

  return (
    <nav className="opp-pagebar" aria-label="Result pages">
      <button
        type="button"
        className="usa-button usa-button--outline opp-pagebar__btn"
        onClick={() => go('first')}
        disabled={page <= 1}
        aria-label="First page"
      >
        <span aria-hidden="true">«</span>
      </button>
      <button
        type="button"
        className="usa-button usa-button--outline opp-pagebar__btn"
        onClick={() => go('previous')}
        disabled={page <= 1}
        aria-label="Previous page"
      >
        <ChevronLeftIcon size={20} />
      </button>
      <span className="opp-pagebar__pos">
        <label htmlFor={`${id}-page`} className="opp-visually-hidden">
          Page number
        </label>
        <input
          id={`${id}-page`}
          className="usa-input opp-pagebar__input"
          inputMode="numeric"
          autoComplete="off"
          maxLength={12}
          value={draft}
          // Kept as typed: a page is parsed on Enter or leaving the box, and anything else reverts.
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            } else if (e.key === 'Escape') setDraft(String(page));
          }}
          aria-describedby={`${id}-of`}
        />
        <span id={`${id}-of`}>of {formatCount(total)}</span>
      </span>
      <button
        type="button"
        className="usa-button usa-button--outline opp-pagebar__btn"
        onClick={() => go('next')}
        disabled={page >= total}
        aria-label="Next page"
      >
        <ChevronRightIcon size={20} />
      </button>
      <button
        type="button"
        className="usa-button usa-button--outline opp-pagebar__btn"
        onClick={() => go('last')}
        disabled={page >= total}
        aria-label="Last page"
      >
        <span aria-hidden="true">»</span>
      </button>
    </nav>
  );
}
