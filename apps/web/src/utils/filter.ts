/** Spec §5: the contact and admin lists filter on a case-insensitive substring. */
export function filterBy<T>(items: readonly T[], query: string, text: (item: T) => string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...items];
  return items.filter((item) => text(item).toLowerCase().includes(q));
}
