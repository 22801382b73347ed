/**
 * The search box the server paints into index.html before the app runs (SearchBar itself, rendered by
 * src/painted-page.tsx with this id). A visitor may type into it on a slow connection; when React
 * replaces it, SearchBar carries on with that text and focus instead of silently dropping them.
 */
export const STATIC_QUERY_ID = 'opp-static-q';

export interface StaticSearchBox {
  /** What the visitor typed, or null when the box still holds what the server put there (the URL's q). */
  typed: string | null;
  focused: boolean;
}

/** The painted box, kept once found: it still holds its text after React has taken it out of the page. */
let box: HTMLInputElement | null = null;
/** Its text when SearchBar read it (readStaticSearchBox). */
let readValue: string | null = null;
/** A search sent from it (Enter or its button) once the app had started, not yet run by the app. */
let submitted: string | null = null;

function paintedBox(): HTMLInputElement | null {
  // Rendered for the server's painter (in Node), there is no page yet.
  if (typeof document === 'undefined') return null;
  const input = document.getElementById(STATIC_QUERY_ID);
  if (!(input instanceof HTMLInputElement)) return null;
  box = input;
  return input;
}

/**
 * Called as the app starts, before its router: from then on a search sent from the painted box is kept
 * for SearchBar to run. Left to the browser, that submit went nowhere when React replaced the form while
 * the browser was about to leave for the search page: the page neither left nor searched, and sometimes
 * the text was gone too. Before the app starts, the form's own submit (a page load) works and is left alone.
 */
export function holdStaticSearchSubmits(): void {
  const input = paintedBox();
  input?.form?.addEventListener('submit', (e) => {
    e.preventDefault();
    submitted = input.value;
  });
}

/** The painted box's typing and focus, or null once the app has replaced it (or on any other page). */
export function readStaticSearchBox(): StaticSearchBox | null {
  const input = paintedBox();
  if (!input) return null;
  readValue = input.value;
  return {
    typed: input.value === input.defaultValue ? null : input.value,
    focused: document.activeElement === input,
  };
}

/**
 * What the painted box got after readStaticSearchBox, while React was replacing it (a render is done
 * in slices, between which the visitor can type and press Enter): the text typed since, and a search
 * sent from it. Each is given once; null when there is nothing.
 */
export function takeLateStaticSearch(): { text: string; submit: boolean } | null {
  if (!box) return null;
  const late =
    submitted !== null
      ? { text: submitted, submit: true }
      : readValue !== null && box.value !== readValue
        ? { text: box.value, submit: false }
        : null;
  submitted = null;
  readValue = box.value;
  return late;
}
