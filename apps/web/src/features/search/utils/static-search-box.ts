/**
 * The search box the server paints into index.html before the app runs (staticSearchForm in
 * apps/server/src/plugins/web-app.ts). A visitor may type into it on a slow connection; when React
 * replaces it, SearchBar carries on with that text and focus instead of silently dropping them.
 */
const STATIC_QUERY_ID = 'opp-static-q';

export interface StaticSearchBox {
  /** What the visitor typed, or null when the box still holds what the server put there (the URL's q). */
  typed: string | null;
  focused: boolean;
}

/** The painted box's typing and focus, or null once the app has replaced it (or on any other page). */
export function readStaticSearchBox(): StaticSearchBox | null {
  const input = document.getElementById(STATIC_QUERY_ID);
  if (!(input instanceof HTMLInputElement)) return null;
  return {
    typed: input.value === input.defaultValue ? null : input.value,
    focused: document.activeElement === input,
  };
}
