/*
 * The one place the server writes code at run time. Four hot loops run per record or per row of a roll
 * (packing and unpacking a stored record, the import's fast record reader, the search values and COPY
 * line of a record, a roll index's row reader and loader); each is compiled once, when its module
 * loads, into a function whose body names the fields of a contract or of the search columns as fixed
 * keys and indexes. V8 runs an object literal with fixed keys several times faster than a loop over
 * the keys (`out[key] = …`: a generic keyed store per value, and an object that changes shape as it
 * grows), as each site's comment says of its own loop.
 *
 * What goes into the body is never input: only keys from the code's own lists, written as JSON string
 * literals (`keyLiteral`), and numbers. The values the body uses arrive as the function's parameters.
 */

/** A key as generated code names it: a JSON string literal, whatever characters it holds. */
export const keyLiteral = (key: string): string => JSON.stringify(key);

/**
 * The value of the expression `body` (a function, usually), compiled once with `scope`'s entries as
 * the names it may use.
 */
export function generated<T>(scope: Record<string, unknown>, body: string): T {
  const names = Object.keys(scope);
  return new Function(...names, `return ${body};`)(...names.map((n) => scope[n])) as T;
}
