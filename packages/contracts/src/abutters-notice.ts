import { mailingLines, type MailingAddress } from './addresses.ts';

/*
 * What an abutters notice says and who its envelopes go to: the words that name the subject, the
 * distance and how it was measured (the record page, the printed list, the CSV and the labels PDF all
 * print them), and the mailing labels themselves, so that the page states the same label counts the PDF
 * prints. No zod here: the record page imports this module alone.
 */

/** The parts of GET /api/abutters's answer (AbuttersResponse in parcels.ts) the notice reads. */
export interface NoticeList {
  Subject: { Account: string; MapLot: string; Location: string };
  DistanceFeet: number;
  /** The day the town's parcel map was published on the portal (YYYY-MM-DD). */
  MapDate: string;
  /** The town the parcels are in: what a "Current Occupant" label's last line says. */
  Town: { City: string; State: string };
  Abutters: {
    Account: string;
    MapLot: string;
    Location: string;
    Owners: (MailingAddress & { OwnerName: string })[];
    SuppressOwner?: true;
  }[];
}

/** Who a label is addressed to in place of a name, at the parcel's own location. */
export const CURRENT_OCCUPANT = 'Current Occupant';

/** "10 MAIN ST (Map/Lot 12-34)", or with no location "Map/Lot 12-34", or "account 1000". */
export function subjectName({ Subject: s }: Pick<NoticeList, 'Subject'>): string {
  const id = s.MapLot ? `Map/Lot ${s.MapLot}` : `account ${s.Account}`;
  return s.Location ? `${s.Location} (${id})` : id;
}

/** "Abutters within 300 ft of 10 MAIN ST (Map/Lot 12-34)". */
export const noticeTitle = (list: Pick<NoticeList, 'Subject' | 'DistanceFeet'>): string =>
  `Abutters within ${list.DistanceFeet.toLocaleString('en-US')} ft of ${subjectName(list)}`;

/** MM/DD/YYYY, the portal's date style, from YYYY-MM-DD (read as written: no time zone shifts it). */
function usDate(isoDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : isoDate;
}

/** How the distance was measured, and what the map is not. */
export const noticeRule = (list: Pick<NoticeList, 'MapDate'>): string =>
  `Measured from this parcel's boundary, using the town's parcel map of ${usDate(list.MapDate)}; ` +
  'the map is a reference, not a survey.';

/** The labels a clerk asks for (AbuttersLabelsQuery). */
export interface LabelChoices {
  /** One label per owner, even for co-owners at one mailing address (default: one per household). */
  perOwner: boolean;
  /** Owners with the same name(s) and mailing address share one label that lists their parcels. */
  dedupe: boolean;
  /** A "Current Occupant" label at the parcel's location for each record with no mailing address. */
  occupants: boolean;
}

export interface NoticeLabel {
  kind: 'owner' | 'occupant';
  /** The addressee(s), then the envelope's address lines. */
  lines: string[];
  /** The map/lots the label is for (more than one when identical addresses were merged). */
  parcels: string[];
}

export interface NoticeLabels {
  labels: NoticeLabel[];
  /** Owner labels printed. */
  owners: number;
  /** "Current Occupant" labels printed. */
  occupants: number;
  /** Records with no owner's mailing address on the roll (withheld, none, or an owner with no address). */
  withoutAddress: number;
  /** Of those, the records a "Current Occupant" label cannot reach either: no location on the roll. */
  withoutLocation: number;
}

const normal = (line: string) => line.toUpperCase().replace(/\s+/g, ' ').trim();

/**
 * The labels of a list, in its order. Owners of one parcel who share a mailing address are one household:
 * one label naming each of them, unless `perOwner`. With `dedupe`, labels whose lines read the same
 * (case and spacing aside) are printed once, with every parcel they are for. Linear in the owners: the
 * labels of one owner's 400 parcels are built in one pass.
 */
export function noticeLabels(list: NoticeList, choices: LabelChoices): NoticeLabels {
  const labels: NoticeLabel[] = [];
  const byLines = new Map<string, { label: NoticeLabel; parcels: Set<string> }>();
  let withoutAddress = 0;
  let withoutLocation = 0;
  const add = (kind: NoticeLabel['kind'], lines: string[], parcel: string) => {
    if (!choices.dedupe) {
      labels.push({ kind, lines, parcels: [parcel] });
      return;
    }
    const key = `${kind}\n${lines.map(normal).join('\n')}`;
    const same = byLines.get(key);
    if (!same) {
      const label = { kind, lines, parcels: [parcel] };
      byLines.set(key, { label, parcels: new Set([parcel]) });
      labels.push(label);
    } else if (!same.parcels.has(parcel)) {
      same.parcels.add(parcel);
      same.label.parcels.push(parcel);
    }
  };

  for (const abutter of list.Abutters) {
    const parcel = abutter.MapLot || `Account ${abutter.Account}`;
    const owners = abutter.SuppressOwner
      ? []
      : abutter.Owners.map((o) => ({ name: o.OwnerName.trim(), address: mailingLines(o) })).filter(
          (o) => o.address.length > 0,
        );
    if (owners.length === 0) {
      withoutAddress++;
      const location = abutter.Location.trim();
      if (!location) withoutLocation++;
      else if (choices.occupants) {
        const town = [list.Town.City, list.Town.State].filter(Boolean).join(', ');
        add('occupant', [CURRENT_OCCUPANT, location, town].filter(Boolean), parcel);
      }
      continue;
    }
    // Households in the order their first owner is listed.
    const households = new Map<string, { names: string[]; address: string[] }>();
    owners.forEach((o, i) => {
      const key = choices.perOwner ? String(i) : o.address.map(normal).join('\n');
      const household = households.get(key);
      if (!household) households.set(key, { names: o.name ? [o.name] : [], address: o.address });
      else if (o.name && !household.names.some((n) => normal(n) === normal(o.name)))
        household.names.push(o.name);
    });
    for (const h of households.values()) add('owner', [...h.names, ...h.address], parcel);
  }

  const count = (kind: NoticeLabel['kind']) => labels.filter((l) => l.kind === kind).length;
  return { labels, owners: count('owner'), occupants: count('occupant'), withoutAddress, withoutLocation };
}

/** How many records have no owner's name on the roll (withheld ones aside). */
export const recordsWithoutOwnerName = (list: Pick<NoticeList, 'Abutters'>): number =>
  list.Abutters.filter((a) => !a.SuppressOwner && !a.Owners.some((o) => o.OwnerName.trim())).length;
