/*
 * Smaller copies of a stored image (GET /api/files/image/{file}?w=…) for phones, so a phone downloads a
 * banner its own size instead of the desktop one. Chosen by media query (<picture>), not by `srcset`
 * width descriptors: a copy at a stated width would be taken as that many pixels even when the stored
 * image is narrower (and sent as stored), and shown smaller than it is. Free of zod: the public pages
 * import it.
 */

export const IMAGE_WIDTHS = [720, 1080] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/**
 * Phone-sized copies of a banner: `media` for <source> and for <link rel="preload">, so the queries
 * never overlap (one preload per screen).
 */
export const BANNER_SOURCES: ReadonlyArray<{ media: string; width: ImageWidth }> = [
  { media: '(max-width: 40em) and (min-resolution: 2.5dppx)', width: 1080 },
  { media: '(max-width: 40em) and (max-resolution: 2.49dppx)', width: 720 },
];

/** Where the stored banner itself is shown (no copy's query matches). */
export const BANNER_FULL_MEDIA = 'not all and (max-width: 40em)';

export function imageAtWidthUrl(url: string, width: ImageWidth): string {
  return `${url}?w=${width}`;
}
