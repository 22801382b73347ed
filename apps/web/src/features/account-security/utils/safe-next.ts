/**
 * The `next` query value as a path in this app, or null. Only a same-origin path is followed after
 * enrolment: `//host` and `/\host` would leave the site (an open redirect).
 */
export function safeNext(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  return raw;
}
