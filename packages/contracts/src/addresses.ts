/*
 * How an address reads, wherever the portal prints one (the record page, the server's painted heading,
 * the map, abutters lists and mailing labels). No zod here: the public pages import this module alone.
 */

/**
 * What a public page or file says in place of owners withheld (a record's SuppressOwner, or a town that
 * does not publish owners: apps/server/src/features/properties/owner-privacy.ts).
 */
export const OWNER_WITHHELD = 'Owner information withheld';

/** The mailing fields of an owner (contract `Owner`); any may be absent. */
export interface MailingAddress {
  Address1?: string;
  Address2?: string;
  Address3?: string;
  City?: string;
  State?: string;
  ZipCode?: string;
  Country?: string;
}

/**
 * "12 MAIN ST", and with an apartment "37 NORTH RD, UNIT 1": the apartment follows the street as
 * a unit (a bare number or letter gets the word UNIT; "APT 4" is kept as written).
 */
export function formatLocation(p: { StreetNumber: string; Apartment: string; StreetName: string }): string {
  const street = [p.StreetNumber, p.StreetName]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
  const apartment = p.Apartment.trim();
  if (!apartment) return street;
  // The word follows the roll's case: "UNIT 1" on an upper-case roll, "Unit 1" on a mixed-case one.
  const word = street === street.toUpperCase() ? 'UNIT' : 'Unit';
  const unit = /^[#\d]|^[a-z]$/i.test(apartment) ? `${word} ${apartment.replace(/^#\s*/, '')}` : apartment;
  return street ? `${street}, ${unit}` : unit;
}

/**
 * An owner's mailing address as an envelope's lines below the name: the street lines, then
 * "City, ST ZIP", then the country unless it is the United States. The record page, the abutters list
 * and the mailing labels all print it this way.
 */
export function mailingLines(o: MailingAddress): string[] {
  const t = (v: string | undefined) => v?.trim() ?? '';
  const cityLine = [t(o.City), [t(o.State), t(o.ZipCode)].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const country = t(o.Country);
  const domestic = !country || /^(us|usa|u\.s\.a?\.?|united states( of america)?)$/i.test(country);
  return [t(o.Address1), t(o.Address2), t(o.Address3), cityLine, domestic ? '' : country].filter(Boolean);
}
