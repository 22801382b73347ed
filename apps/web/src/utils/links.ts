import { normaliseWebLink } from '@opp/contracts/links';

/*
 * Building outbound and asset URLs from what the API returns.
 */

/**
 * Spec §4 Pay Now: `https://` is prepended when the configured link has no scheme, then the account is
 * appended (the town's payment page takes it as the end of its URL, e.g. "…?account=" + "1234").
 * Returns null for a link that is not http(s) after that, so a bad setting never becomes a javascript: URL.
 */
export function paymentUrl(link: string, account: string): string | null {
  const trimmed = link.trim();
  if (!trimmed) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  if (!/^https?:\/\//i.test(withScheme)) return null;
  return `${withScheme}${encodeURIComponent(account)}`;
}

/** A link the API gives (GIS map, contact home page) as a safe http(s) URL, or null. */
export function externalUrl(link: string): string | null {
  // The server's own rule (contracts/links.ts), so a link stored before it existed is judged the same.
  return normaliseWebLink(link) || null;
}

/**
 * Image paths from the API (thumbnails' ImageURL, a record's Images) are relative to the API host, which
 * is this origin; absolute http(s) URLs are used as they are.
 */
export function assetUrl(pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`;
}

export { fileImageUrl } from '@opp/contracts/image-sizes';
