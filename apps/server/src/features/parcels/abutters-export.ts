import {
  mailingLines,
  OWNER_WITHHELD,
  type Abutter,
  type AbuttersResponse,
  type MailingOwner,
} from '@opp/contracts';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { csvRow, type CsvCell } from '../../lib/csv.ts';

/*
 * An abutters list as files to send out: CSV (one owner's mailing name and address a row) and mailing
 * labels as a PDF for Avery 5160 / 8160 sheets (US Letter, 30 labels a page in 3 columns of 10, each
 * 2⅝″ × 1″: ½″ top margin, 3/16″ side margins, ⅛″ between columns).
 */

interface Mailing {
  owner: MailingOwner;
  abutter: Abutter;
}

/** Every owner of every abutter, in the list's order. An abutter with no owner on record gives none. */
const mailingsOf = (list: AbuttersResponse): Mailing[] =>
  list.Abutters.flatMap((abutter) => abutter.Owners.map((owner) => ({ owner, abutter })));

const CSV_COLUMNS: { header: string; value: (m: Mailing) => CsvCell }[] = [
  { header: 'Distance (ft)', value: (m) => m.abutter.DistanceFeet },
  { header: 'Account', value: (m) => m.abutter.Account },
  { header: 'Map/Lot', value: (m) => m.abutter.MapLot },
  { header: 'Location', value: (m) => m.abutter.Location },
  { header: 'Owner', value: (m) => m.owner.OwnerName },
  { header: 'Address 1', value: (m) => m.owner.Address1 },
  { header: 'Address 2', value: (m) => m.owner.Address2 },
  { header: 'Address 3', value: (m) => m.owner.Address3 },
  { header: 'City', value: (m) => m.owner.City },
  { header: 'State', value: (m) => m.owner.State },
  { header: 'ZIP', value: (m) => m.owner.ZipCode },
  { header: 'Country', value: (m) => m.owner.Country },
];

/** The row of an abutter whose owners are withheld: the parcel is listed, its owners are not. */
const withheldOwner = (): MailingOwner => ({
  OwnerName: OWNER_WITHHELD,
  Address1: '',
  Address2: '',
  Address3: '',
  City: '',
  State: '',
  ZipCode: '',
  Country: '',
});

/**
 * The list as CSV, UTF-8 with a byte-order mark (so spreadsheets read accents) and a header row. An
 * abutter whose owners are withheld has one row saying so (labels have none: there is no one to mail).
 */
export function abuttersCsv(list: AbuttersResponse): string {
  let out = '\uFEFF' + csvRow(CSV_COLUMNS.map((c) => c.header));
  const rows = list.Abutters.flatMap((abutter) =>
    abutter.SuppressOwner
      ? [{ owner: withheldOwner(), abutter }]
      : mailingsOf({ ...list, Abutters: [abutter] }),
  );
  for (const m of rows) out += csvRow(CSV_COLUMNS.map((c) => c.value(m)));
  return out;
}

/** A label's lines: the addressee, then the envelope's address lines. */
function addressLines(o: MailingOwner): string[] {
  return [o.OwnerName.trim(), ...mailingLines(o)].filter(Boolean);
}

export interface Label {
  lines: string[];
  /** The map/lots the label is for (more than one when identical addresses were merged). */
  parcels: string[];
}

/**
 * One label per owner of each abutter; with `dedupe`, owners whose name and mailing address read the same
 * (case and spacing aside) share one label that lists their parcels' map/lots.
 */
export function labelsOf(list: AbuttersResponse, dedupe: boolean): Label[] {
  const labels: Label[] = [];
  const byAddress = new Map<string, Label>();
  for (const m of mailingsOf(list)) {
    const lines = addressLines(m.owner);
    const parcel = m.abutter.MapLot || `Account ${m.abutter.Account}`;
    if (!dedupe) {
      labels.push({ lines, parcels: [parcel] });
      continue;
    }
    const key = lines.map((l) => l.toUpperCase().replace(/\s+/g, ' ')).join('\n');
    const same = byAddress.get(key);
    if (same) {
      if (!same.parcels.includes(parcel)) same.parcels.push(parcel);
      continue;
    }
    const label = { lines, parcels: [parcel] };
    byAddress.set(key, label);
    labels.push(label);
  }
  return labels;
}

const POINTS = 72;
const PAGE = { width: 8.5 * POINTS, height: 11 * POINTS };
export const LABEL_SHEET = {
  columns: 3,
  rows: 10,
  width: 2.625 * POINTS,
  height: 1 * POINTS,
  top: 0.5 * POINTS,
  left: 0.1875 * POINTS,
  columnGap: 0.125 * POINTS,
} as const;
const PADDING = 0.12 * POINTS;
const FONT_SIZE = 8.5;
const MIN_FONT_SIZE = 6;

/** The standard fonts encode Windows-1252 only: other letters lose their accents, or become `?`. */
function encodable(text: string, font: PDFFont): string {
  // Printable ASCII (nearly every address) is in every encoding.
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  let out = '';
  for (const ch of text) {
    const candidates = [ch, ch.normalize('NFKD').replace(/\p{M}+/gu, '')];
    const ok = candidates.find((c) => {
      try {
        font.encodeText(c);
        return c.length > 0;
      } catch {
        return false;
      }
    });
    out += ok ?? '?';
  }
  return out;
}

/** Mailing labels (Avery 5160 / 8160) as PDF bytes; dedupe merges identical addresses. */
export async function abuttersLabelsPdf(
  list: AbuttersResponse,
  dedupe: boolean,
  title: string,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setCreator('Open Property Portal');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const labels = labelsOf(list, dedupe);
  const perPage = LABEL_SHEET.columns * LABEL_SHEET.rows;
  const usable = LABEL_SHEET.width - 2 * PADDING;
  for (let i = 0; i < Math.max(labels.length, 1); i += perPage) {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    labels.slice(i, i + perPage).forEach((label, k) => {
      const col = k % LABEL_SHEET.columns;
      const row = Math.floor(k / LABEL_SHEET.columns);
      const x = LABEL_SHEET.left + col * (LABEL_SHEET.width + LABEL_SHEET.columnGap) + PADDING;
      const top = PAGE.height - LABEL_SHEET.top - row * LABEL_SHEET.height;
      const lines = label.lines.map((l) => encodable(l, font));
      if (label.parcels.length > 1) lines.push(encodable(`Parcels ${label.parcels.join(', ')}`, font));
      // Five lines fit a label at the full size; more (or a long one) get smaller type, never outside it.
      const widest = Math.max(...lines.map((l) => font.widthOfTextAtSize(l, FONT_SIZE)), 1);
      const fitsHeight = (LABEL_SHEET.height - 2 * PADDING) / (lines.length * 1.15);
      const size = Math.max(MIN_FONT_SIZE, Math.min(FONT_SIZE, fitsHeight, (FONT_SIZE * usable) / widest));
      const leading = size * 1.15;
      lines.slice(0, Math.floor((LABEL_SHEET.height - PADDING) / leading)).forEach((line, n) => {
        let text = line;
        while (text.length > 1 && font.widthOfTextAtSize(text, size) > usable) text = text.slice(0, -1);
        page.drawText(text, { x, y: top - PADDING - size - n * leading, size, font });
      });
    });
  }
  return pdf.save();
}
