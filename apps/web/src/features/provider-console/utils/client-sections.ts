/**
 * The parts of a client's page in the provider console, each a tab with its own address
 * (/admin/clients/:id/:section); the first is the page's own address.
 */
export const CLIENT_SECTIONS = [
  { slug: 'details', label: 'Details' },
  { slug: 'contacts', label: 'Contacts' },
  { slug: 'roll', label: 'Roll publishing' },
  { slug: 'parcel-layer', label: 'Parcel layer' },
] as const;

export type ClientSection = (typeof CLIENT_SECTIONS)[number]['slug'];

/** The section an address names; undefined for one it does not know (the page then shows the first). */
export const clientSection = (slug: string | undefined): ClientSection | undefined =>
  CLIENT_SECTIONS.find((s) => s.slug === (slug ?? CLIENT_SECTIONS[0].slug))?.slug;
