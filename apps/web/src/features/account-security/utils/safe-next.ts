import { CONTROL_CHARACTERS } from '@opp/contracts/links';

/** Percent-encoded control characters (`%09`, `%0A`, `%7F`…): decoded once more somewhere, they are the raw ones. */
const ENCODED_CONTROL = /%(?:[01][0-9a-f]|7f)/i;

/**
 * The `next` query value as a path in this app, or null. Only a same-origin path is followed after
 * enrolment (an open redirect otherwise). Browsers drop tabs and line breaks from a URL and read `\` as
 * `/`, so `/\t/evil.example/` (from `?next=/%09/evil.example/`) becomes `//evil.example/`, another site:
 * such values are refused outright, and what is left is resolved against the page's own origin, as the
 * browser will resolve it, and must stay there. Resolving removes dot segments, so `/.//evil.example/`
 * comes out as `//evil.example/`, which as a link is another site again: a path that resolves to one
 * starting `//` is refused too.
 */
export function safeNext(
  raw: string | null | undefined,
  origin: string = window.location.origin,
): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return null;
  if (CONTROL_CHARACTERS.test(raw) || ENCODED_CONTROL.test(raw) || raw.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin || url.pathname.startsWith('//')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
