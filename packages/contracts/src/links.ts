/*
 * The one rule for links the portal stores and serves (a contact's Home URL, a town's Payment Link, a
 * roll's GIS link and image addresses). Browsers strip tabs and line breaks from a URL before parsing it
 * and treat `\` as `/`, so a value that looks harmless to a check can become `javascript:` or another
 * site once it is in an `href`. The rule therefore judges exactly the value that is stored: trimmed,
 * refused if it holds any control or invisible formatting character, parsed once, and stored as the
 * parser's normalised `URL.href`, which is what every later reader sees. No zod here: the public web
 * pages use these rules too (the fields built on them are in common.ts).
 */

/** C0/C1 controls (tab, CR, LF…), zero-width and bidirectional formatting characters, BOM. */
export const CONTROL_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

/** A host people can reach by name: dotted, ending in a letter TLD (or its punycode form). */
const PUBLIC_HOST = /\.(?:[a-z]{2,}|xn--[a-z0-9-]+)$/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The stored form of an http(s) link, or null when it is not one. The scheme is optional the way people
 * type addresses ("www.town.gov" becomes "https://www.town.gov/"); user names and passwords in the
 * address are refused (they hide the real host: `https://town.gov@evil.example`). Empty stays empty.
 */
export function normaliseWebLink(raw: string): string | null {
  const value = raw.trim();
  if (value === '') return '';
  if (CONTROL_CHARACTERS.test(value) || value.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(HAS_SCHEME.test(value) ? value : `https://${value}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || !PUBLIC_HOST.test(url.hostname)) return null;
  return url.href;
}

const PATH_BASE = 'https://portal.invalid';

/**
 * A roll's image address: an http(s) link as above, or a path on the portal itself
 * ("/api/files/image/p1.jpg"), which must stay on the portal once resolved (`//host`, `/\host` leave it).
 */
export function normaliseImageLink(raw: string): string | null {
  const value = raw.trim();
  if (!value.startsWith('/')) return value === '' ? null : normaliseWebLink(value);
  if (CONTROL_CHARACTERS.test(value) || value.includes('\\')) return null;
  try {
    const url = new URL(value, PATH_BASE);
    if (url.origin !== PATH_BASE) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/**
 * An email address and nothing more. The local part leaves out `?`, `&`, `%`, `#` and `/`, so the
 * address cannot add recipients, a subject or a body when it is put in a `mailto:` link.
 */
export const EMAIL =
  /^[A-Za-z0-9.!$'*+=^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;
