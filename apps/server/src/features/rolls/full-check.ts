import { PropertyRecord } from '@opp/contracts';
import { parseNumber } from './mapping/transforms.ts';
import type { FullCheck } from './roll-rows.ts';

/**
 * Zod's check of a record against the contract: what the fast path (record-fast-path.ts) leaves to it
 * gets its output, or its messages, from here. A module of its own, so an import thread can load it
 * (and zod) only when a record needs it (prepare-worker.ts).
 *
 * Coercion that loses nothing is applied before a record is refused: a number where the record says
 * text is taken as its decimal text (`"StreetNumber": 12` → "12"), text that is a plain number where
 * the record says number is taken as that number (`"1,234"`, `" 42 "`). Anything else stays the
 * contract's message.
 */
export const fullCheck: FullCheck = (value, params) => {
  const first = PropertyRecord.safeParse(value, params);
  if (first.success) return first;
  const coerced = coerceLossless(value, first.error.issues);
  return coerced === null ? first : PropertyRecord.safeParse(coerced, params);
};

type Issue = { code: string; expected?: string; path: PropertyKey[] };

/** A copy of `value` with each type mistake that has a lossless reading fixed, or null when none has. */
function coerceLossless(value: unknown, issues: readonly Issue[]): unknown {
  let copy: unknown = null;
  for (const issue of issues) {
    if (issue.code !== 'invalid_type' && issue.code !== 'invalid_union') continue;
    if (issue.path.length === 0) continue;
    const current = at(copy ?? value, issue.path);
    let next: unknown;
    if (typeof current === 'number' && Number.isFinite(current) && issue.expected !== 'number')
      next = String(current);
    else if (typeof current === 'string' && issue.expected === 'number')
      next = parseNumber(current) ?? undefined;
    if (next === undefined) continue;
    copy ??= structuredClone(value);
    set(copy, issue.path, next);
  }
  return copy;
}

function at(value: unknown, path: PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function set(value: unknown, path: PropertyKey[], next: unknown): void {
  const parent = at(value, path.slice(0, -1)) as Record<PropertyKey, unknown>;
  parent[path[path.length - 1]!] = next;
}
