import type { PublicClient } from './clients.ts';

/*
 * What a town's heading shows, for the app's TownHeading and for the copy the server paints into
 * index.html before the scripts run (both must render the same element), and smaller copies of a
 * stored image (GET /api/files/image/{file}?w=…) for phones, so a phone downloads a
 * banner its own size instead of the desktop one. Chosen by media query (<picture>), not by `srcset`
 * width descriptors: a copy at a stated width would be taken as that many pixels even when the stored
 * image is narrower (and sent as stored), and shown smaller than it is. Free of zod (types only): the
 * public pages import it.
 */

/** A stored file (banner image) as GET /api/files/image/{file} serves it. */
export function fileImageUrl(file: string): string {
  return `/api/files/image/${encodeURIComponent(file)}`;
}

type Town = Pick<PublicClient, 'City' | 'StateProvince' | 'Description'>;

/** "City, State": the heading of a town without a banner. */
export const townName = (town: Pick<Town, 'City' | 'StateProvince'>) => `${town.City}, ${town.StateProvince}`;

/** The banner's text alternative: the town's description (its full name) and state, or its name. */
export const bannerLabel = (town: Town) =>
  town.Description?.trim() ? `${town.Description.trim()}, ${town.StateProvince}` : townName(town);

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
