import type { SortColumn } from '@opp/contracts';
import { useId, useState } from 'react';
import { SortIcon } from '@/components/ui/icons';
import { SORT_CHOICES, type SortState } from '../utils/search-state';
import { SortIndicator } from './sort-indicator';

export interface SortPanelProps {
  sort: SortState;
  onSort: (column: SortColumn) => void;
  /** Shown at every width (grid view has no column headers); otherwise only on small screens. */
  always: boolean;
}

/**
 * Spec §2: "On mobile a sorts button opens a sort panel." Same rules as the column headers: a new
 * column sorts ascending, the current one toggles.
 */
export function SortPanel({ sort, onSort, always }: SortPanelProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className={`opp-sortpanel${always ? '' : ' opp-sortpanel--mobile'}`}>
      <button
        type="button"
        className="usa-button usa-button--outline opp-toolbar__btn"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((o) => !o)}
      >
        <SortIcon size={20} /> Sort
      </button>
      <div
        id={`${id}-panel`}
        className="opp-sortpanel__panel"
        hidden={!open}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            setOpen(false);
            (e.currentTarget.previousElementSibling as HTMLElement | null)?.focus();
          }
        }}
      >
        <ul className="opp-sortpanel__list" aria-label="Sort results by">
          {SORT_CHOICES.map(({ column, label }) => {
            const active = sort.sortby === column;
            return (
              <li key={column}>
                <button
                  type="button"
                  className={`opp-sortpanel__option${active ? ' is-active' : ''}`}
                  aria-pressed={active}
                  onClick={() => onSort(column)}
                >
                  <span>{label}</span>
                  <SortIndicator column={column} sort={sort} />
                  {active ? (
                    <span className="opp-visually-hidden">
                      {sort.descending ? ', descending' : ', ascending'}
                    </span>
                  ) : null}
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
