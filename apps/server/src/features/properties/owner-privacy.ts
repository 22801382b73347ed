import type { Owner, PropertySummary, Sale } from '@opp/contracts';

/*
 * Owners are people (issue 39): the one place that decides what of a parcel's owners leaves the server
 * on a public path. Every public reader goes through here: the record page (properties.service.ts), search
 * results, their CSV and the type-ahead (search.service.ts), the abutters list, its CSV and labels
 * (parcels.service.ts); a later public feature that shows owners must too.
 *
 * Two sources of withholding:
 * - the record's own `SuppressOwner` flag (Vision's REM_INET_SUPPRESS, or a mapped column): decided when
 *   the roll is published, so the importer already leaves the owners out of the parcel's stored summary,
 *   search words and name sort key (searchableOwners): they are never in what search reads;
 * - the town's settings (migrations/0016), which change at any time, so they are applied as each answer
 *   is made: PublishOwnerNames off withholds every parcel's owners; OwnerNameSearch off (or names not
 *   published) keeps text search from matching them, by searching without the words only owner names
 *   give (the `owner_words` search column).
 * The full record keeps its owners in the database: a town that later publishes them, or turns the flag
 * off, needs no new roll for the names to show.
 */

/** A town's owner settings, as the clients table holds them. */
export interface OwnerSettings {
  publishOwnerNames: boolean;
  ownerNameSearch: boolean;
}

/** What a record carries that decides its owners' privacy. */
export interface PublicRecordOwners {
  Owners: Owner[];
  Sales: Sale[];
  SuppressOwner?: boolean;
}

/** Whether a record's owners are withheld from the public. */
export function ownersWithheld(town: OwnerSettings, record: { SuppressOwner?: boolean }): boolean {
  return !town.publishOwnerNames || record.SuppressOwner === true;
}

/** Whether the town publishes owner names at all (off: no parcel's owners, nor their order by name). */
export function ownerNamesPublished(town: OwnerSettings): boolean {
  return town.publishOwnerNames;
}

/** Whether text search may match owner names in the town: only names it publishes and lets be searched. */
export function ownerNamesSearchable(town: OwnerSettings): boolean {
  return town.publishOwnerNames && town.ownerNameSearch;
}

/**
 * The owners a parcel's search row is made from (summary, words, name sort): none for a record whose
 * owners are suppressed, so search cannot find, sort or show it by them.
 */
export function searchableOwners(record: { Owners: Owner[]; SuppressOwner?: boolean }): Owner[] {
  return record.SuppressOwner === true ? [] : record.Owners;
}

/**
 * Part of the answers' validators (ETag): a change of the town's settings must not be answered 304 with a
 * copy made under the others.
 */
export function ownerSettingsTag(town: OwnerSettings): string {
  return `${town.publishOwnerNames ? 'p' : '-'}${town.ownerNameSearch ? 's' : '-'}`;
}

/**
 * A record as the public may see it: when its owners are withheld, no owners (names and mailing
 * addresses), no party of any sale, and `SuppressOwner` true so the page says "Owner information
 * withheld". Every sale's party goes, not only those that look like a current owner: a registry's
 * spelling of a name (`QUIMBY ZEBULON XAVIER`, `Z. QUIMBY & M. QUIMBY`, `QUIMBY FAMILY TRUST`) need not
 * match the roll's, and where the town publishes no owners a sale party is a person's name all the
 * same. A sale's date, price, type, book and page stay: the registry of deeds' public reference.
 * Otherwise the record itself. Never changes its argument.
 */
export function publicRecord<R extends PublicRecordOwners>(town: OwnerSettings, record: R): R {
  if (!ownersWithheld(town, record)) return record;
  return {
    ...record,
    Owners: [],
    Sales: record.Sales.map((s) => (s.SaleParty ? { ...s, SaleParty: '' } : s)),
    SuppressOwner: true,
  };
}

const withoutOwners = <S extends PropertySummary>(rows: S[]): S[] =>
  rows.map((s) => (s.Owners.length === 0 ? s : { ...s, Owners: [] }));

/** Search results as the public may see them: without owners when the town does not publish them. */
export function publicSummaries<S extends PropertySummary>(town: OwnerSettings, rows: S[]): S[] {
  return town.publishOwnerNames ? rows : withoutOwners(rows);
}

/**
 * Summaries as the type-ahead may offer their owners: none where owner names are not searchable (a
 * suggestion is a match of what was typed).
 */
export function searchableSummaries<S extends PropertySummary>(town: OwnerSettings, rows: S[]): S[] {
  return ownerNamesSearchable(town) ? rows : withoutOwners(rows);
}
