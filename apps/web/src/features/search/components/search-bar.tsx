import type { Suggestion } from '@opp/contracts';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { FilterIcon, SearchIcon } from '@/components/ui/icons';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { MIN_SUGGEST_CHARS, useSuggestions } from '../api/get-suggestions';
import { readStaticSearchBox, takeLateStaticSearch } from '../utils/static-search-box';

export interface SearchBarProps {
  clientId: number;
  query: string;
  filterCount: number;
  onSearch: (query: string) => void;
  onPickSuggestion: (s: Suggestion) => void;
  onAdvanced: () => void;
  /** The Advanced search button, so the dialog can give focus back to it. */
  advancedRef?: Ref<HTMLButtonElement>;
  onClear: () => void;
  /** The box's id; by default one of its own (the server's painted copy has a known one). */
  inputId?: string;
}

const KIND_LABEL: Record<Suggestion['kind'], string> = {
  owner: 'Owner',
  address: 'Address',
  maplot: 'Map/Lot',
};

/**
 * The text search (runs on Enter or the button) with type-ahead suggestions as an ARIA 1.2 combobox:
 * Down/Up move through the list, Enter picks, Escape closes; the focused option is announced through
 * aria-activedescendant, and the number of suggestions through a status line.
 */
export function SearchBar({
  clientId,
  query,
  filterCount,
  onSearch,
  onPickSuggestion,
  onAdvanced,
  advancedRef,
  onClear,
  inputId: givenInputId,
}: SearchBarProps) {
  const id = useId();
  const inputId = givenInputId ?? `${id}-q`;
  const listId = `${id}-list`;
  // The box painted with the page (before the scripts ran) may already hold typing and focus; untouched,
  // it defers to the search the app shows (a bare URL restores the stored one, spec §4).
  const [painted] = useState(readStaticSearchBox);
  const [draft, setDraft] = useState(painted?.typed ?? query);
  const inputRef = useRef<HTMLInputElement>(null);
  // A layout effect: focus moves in the same step as React swaps the boxes, so it is never lost between.
  useLayoutEffect(() => {
    if (!painted?.focused || !inputRef.current) return;
    const input = inputRef.current;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, [painted]);
  // Typing, or a search sent, in the painted box after it was read, while React was replacing it.
  useEffect(() => {
    const late = takeLateStaticSearch();
    if (!late) return;
    setDraft(late.text);
    inputRef.current?.focus();
    if (late.submit) onSearch(late.text);
  }, [onSearch]);
  const [shownQuery, setShownQuery] = useState(query);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Back/Forward or Clear change the search from outside; the box follows.
  if (shownQuery !== query) {
    setShownQuery(query);
    setDraft(query);
  }

  const typed = useDebouncedValue(draft.trim(), 200);
  const suggestions = useSuggestions(clientId, typed);
  const items = open && typed.length >= MIN_SUGGEST_CHARS ? (suggestions.data ?? []) : [];
  const expanded = items.length > 0;

  const pick = (s: Suggestion) => {
    setOpen(false);
    setActive(-1);
    setDraft(s.text);
    onPickSuggestion(s);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      if (items.length) setActive((a) => (a + 1) % items.length);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (items.length) setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
    } else if (e.key === 'Enter' && expanded && active >= 0 && items[active]) {
      e.preventDefault();
      pick(items[active]);
    } else if (e.key === 'Escape' && expanded) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    // A GET form with a `q` field: painted by the server (src/painted-page.tsx), it searches before the
    // app has started by loading this page with `?q=`, which the app reads.
    <form
      className="opp-searchbar"
      role="search"
      aria-label="Property search"
      method="get"
      onSubmit={(e) => {
        e.preventDefault();
        setOpen(false);
        setActive(-1);
        onSearch(draft);
      }}
    >
      <label className="usa-label opp-searchbar__label" htmlFor={inputId}>
        Search by owner, address, map/lot or account
      </label>
      <div className="opp-searchbar__row">
        <div className="opp-combobox">
          <input
            ref={inputRef}
            id={inputId}
            className="usa-input opp-searchbar__input"
            type="search"
            name="q"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            value={draft}
            onChange={(e) => {
              setDraft(e.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setOpen(false)}
          />
          <ul
            id={listId}
            role="listbox"
            aria-label="Suggestions"
            className="opp-combobox__list"
            hidden={!expanded}
          >
            {items.map((s, i) => (
              <li
                key={`${s.kind}:${s.text}:${s.account ?? ''}`}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={`opp-combobox__option${i === active ? ' is-active' : ''}`}
                // mousedown, not click: the input must not lose focus (and close the list) first.
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(s);
                }}
              >
                <span className="opp-combobox__text">{s.text}</span>
                <span className="opp-combobox__kind">{KIND_LABEL[s.kind]}</span>
              </li>
            ))}
          </ul>
          <div className="opp-visually-hidden" role="status">
            {expanded ? `${items.length} suggestion${items.length === 1 ? '' : 's'} available` : ''}
          </div>
        </div>
        <button type="submit" className="usa-button opp-searchbar__submit">
          <SearchIcon size={20} />
          <span>Search</span>
        </button>
      </div>
      <div className="opp-searchbar__actions">
        <button
          ref={advancedRef}
          type="button"
          className="usa-button usa-button--outline"
          aria-haspopup="dialog"
          onClick={onAdvanced}
        >
          <FilterIcon size={20} /> Advanced search
          {filterCount > 0 ? (
            <span className="opp-badge">
              {filterCount}
              <span className="opp-visually-hidden"> filter{filterCount === 1 ? '' : 's'} set</span>
            </span>
          ) : null}
        </button>
        <button type="button" className="usa-button usa-button--unstyled opp-clear" onClick={onClear}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
