import { useDeferredValue } from 'react';

/** Results rendered with the page: more than a phone screen holds, a fifth of a full page. */
export const FIRST_ROWS = 10;

/**
 * The results to render: the first rows at once, then all of them in a following render that React may
 * interrupt. Fifty rows in one go is one long task on a slow phone, during which taps go unanswered.
 */
export function useFirstRowsFirst<T>(rows: T[]): T[] {
  return useDeferredValue(rows, rows.length > FIRST_ROWS ? rows.slice(0, FIRST_ROWS) : rows);
}
