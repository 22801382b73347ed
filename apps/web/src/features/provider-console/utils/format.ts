const count = new Intl.NumberFormat('en-US');
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

/** 12,345 */
export const formatCount = (n: number) => count.format(n);

/** An instant as an en-US date (spec §9 "Date Last Updated (en-US)"): 3/14/2025. */
export function formatDate(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString('en-US');
}

/** An instant with its time, for the import history: 3/14/25, 2:05 PM. */
export function formatWhen(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : dateTime.format(d);
}
