import {
  noticeLabels,
  noticeRule,
  noticeTitle,
  OWNER_WITHHELD,
  type Abutter,
  type AbuttersResponse,
  type LabelChoices,
  type MailingOwner,
  type NoticeLabels,
} from '@opp/contracts';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { csvRow, type CsvCell } from '../../lib/csv.ts';

/*
 * An abutters list as files to send out: CSV (every record, with each owner's mailing name and address)
 * and mailing labels as a PDF for Avery 5160 / 8160 sheets (US Letter, 30 labels a page in 3 columns of
 * 10, each 2⅝″ × 1″: ½″ top margin, 3/16″ side margins, ⅛″ between columns). Both name the subject, the
 * distance and how it was measured (abutters-notice.ts), so a file on its own says what it is.
 */

interface Row {
  abutter: Abutter;
  owner: MailingOwner | null;
}

const CSV_COLUMNS: { header: string; value: (r: Row) => CsvCell }[] = [
  { header: 'Distance (ft)', value: (r) => r.abutter.DistanceFeet },
  { header: 'Account', value: (r) => r.abutter.Account },
  { header: 'Map/Lot', value: (r) => r.abutter.MapLot },
  { header: 'Location', value: (r) => r.abutter.Location },
  {
    header: 'Owner',
    value: (r) => (r.abutter.SuppressOwner ? OWNER_WITHHELD : (r.owner?.OwnerName ?? '')),
  },
  { header: 'Address 1', value: (r) => r.owner?.Address1 ?? '' },
  { header: 'Address 2', value: (r) => r.owner?.Address2 ?? '' },
  { header: 'Address 3', value: (r) => r.owner?.Address3 ?? '' },
  { header: 'City', value: (r) => r.owner?.City ?? '' },
  { header: 'State', value: (r) => r.owner?.State ?? '' },
  { header: 'ZIP', value: (r) => r.owner?.ZipCode ?? '' },
  { header: 'Country', value: (r) => r.owner?.Country ?? '' },
];

/** A file name naming the distance and the subject: "abutters-300ft-10-MAIN-ST-map-lot-12-34.csv". */
export function abuttersFileName(list: AbuttersResponse, ext: string): string {
  const slug = (text: string) =>
    text
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60);
  const { Location, MapLot, Account } = list.Subject;
  const parts = [`abutters-${list.DistanceFeet}ft`, slug(Location), MapLot ? `map-lot-${slug(MapLot)}` : ''];
  if (!slug(Location) && !slug(MapLot)) parts.push(`account-${slug(Account)}`);
  return `${parts.filter(Boolean).join('-')}.${ext}`;
}

/**
 * The list as CSV, UTF-8 with a byte-order mark (so spreadsheets read accents): two lines naming the
 * list and its rule, a blank line, the header row, then one row per owner of each record, and one row for
 * a record with no owner on the roll (or whose owners are withheld): every parcel is there.
 */
export function abuttersCsv(list: AbuttersResponse): string {
  let out = '\uFEFF' + csvRow([noticeTitle(list)]) + csvRow([noticeRule(list)]) + '\r\n';
  out += csvRow(CSV_COLUMNS.map((c) => c.header));
  for (const abutter of list.Abutters) {
    const owners = abutter.SuppressOwner || abutter.Owners.length === 0 ? [null] : abutter.Owners;
    for (const owner of owners) out += csvRow(CSV_COLUMNS.map((c) => c.value({ abutter, owner })));
  }
  return out;
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

/**
 * The longest start of `text` that fits `width` points at `size`, with "…" where it was cut. One pass
 * over the characters, each measured once: a label line of thousands of characters costs no more than
 * its length (measuring the whole line again for each character cut was quadratic).
 */
function fitted(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  const ellipsis = '…';
  let used = font.widthOfTextAtSize(ellipsis, size);
  let end = 0;
  for (const ch of text) {
    used += font.widthOfTextAtSize(ch, size);
    if (used > width) break;
    end += ch.length;
  }
  // Kerning can make the whole a little wider than its characters: a character or two more, at most.
  let out = text.slice(0, end).trimEnd() + ellipsis;
  while (end > 0 && font.widthOfTextAtSize(out, size) > width)
    out = text.slice(0, --end).trimEnd() + ellipsis;
  return out;
}

/**
 * "Parcels 12-1, 12-2, 12-3 and 397 more": as many of the label's map/lots as fit its width, then how
 * many did not. Each map/lot is measured once.
 */
function parcelsLine(parcels: string[], font: PDFFont, size: number, width: number): string {
  const head = 'Parcels ';
  const rest = (n: number) => (n ? ` and ${n.toLocaleString('en-US')} more` : '');
  // Room for the longest "and N more" this line could need.
  const reserve = font.widthOfTextAtSize(rest(parcels.length), size);
  let used = font.widthOfTextAtSize(head, size);
  let shown = 0;
  for (const p of parcels) {
    const w = font.widthOfTextAtSize((shown ? ', ' : '') + p, size);
    const last = shown === parcels.length - 1;
    if (used + w + (last ? 0 : reserve) > width) break;
    used += w;
    shown++;
  }
  // Not even one fits beside "and N more": the first, cut, and the count.
  if (shown === 0) return fitted(`${head}${parcels[0]}${rest(parcels.length - 1)}`, font, size, width);
  return `${head}${parcels.slice(0, shown).join(', ')}${rest(parcels.length - shown)}`;
}

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What the labels are: the notice's title and rule, and how many labels of each kind the PDF holds. */
function coverLines(list: AbuttersResponse, made: NoticeLabels, choices: LabelChoices): string[] {
  const counts = [plural(made.owners, 'owner label')];
  if (choices.occupants) counts.push(plural(made.occupants, 'Current Occupant label'));
  const unaddressed = made.withoutAddress - made.occupants;
  if (unaddressed > 0)
    counts.push(
      `${plural(unaddressed, 'record')} with no mailing address ${unaddressed === 1 ? 'has' : 'have'} no label`,
    );
  return [`${noticeTitle(list)}: ${counts.join(', ')}.`, noticeRule(list)];
}

const COVER_SIZE = 7;

/** The cover lines, in the sheet's top margin (above the first row of labels), with the page number. */
function drawCover(page: PDFPage, lines: string[], font: PDFFont, pageNo: number, pages: number) {
  const width = PAGE.width - 2 * LABEL_SHEET.left;
  const text = [...lines];
  text[0] = `${text[0]} Page ${pageNo} of ${pages}.`;
  text.forEach((line, n) => {
    const fit = fitted(encodable(line, font), font, COVER_SIZE, width);
    page.drawText(fit, {
      x: LABEL_SHEET.left,
      y: PAGE.height - 0.18 * POINTS - COVER_SIZE - n * COVER_SIZE * 1.25,
      size: COVER_SIZE,
      font,
    });
  });
}

/**
 * Mailing labels (Avery 5160 / 8160) as PDF bytes, for the choices (LabelChoices), after the cover lines
 * that say what they are. A list with no label to print is one page with its cover lines.
 */
export async function abuttersLabelsPdf(list: AbuttersResponse, choices: LabelChoices): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(noticeTitle(list));
  pdf.setSubject(noticeRule(list));
  pdf.setCreator('Open Property Portal');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const made = noticeLabels(list, choices);
  const { labels } = made;
  const cover = coverLines(list, made, choices);
  const perPage = LABEL_SHEET.columns * LABEL_SHEET.rows;
  const pages = Math.max(1, Math.ceil(labels.length / perPage));
  const usable = LABEL_SHEET.width - 2 * PADDING;
  for (let i = 0; i < Math.max(labels.length, 1); i += perPage) {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    drawCover(page, cover, font, i / perPage + 1, pages);
    labels.slice(i, i + perPage).forEach((label, k) => {
      const col = k % LABEL_SHEET.columns;
      const row = Math.floor(k / LABEL_SHEET.columns);
      const x = LABEL_SHEET.left + col * (LABEL_SHEET.width + LABEL_SHEET.columnGap) + PADDING;
      const top = PAGE.height - LABEL_SHEET.top - row * LABEL_SHEET.height;
      const lines = label.lines.map((l) => encodable(l, font));
      const merged = label.parcels.length > 1;
      const count = lines.length + (merged ? 1 : 0);
      // Five lines fit a label at the full size; more (or a long one) get smaller type, never outside it.
      // The parcels line is fitted to the size the others need, so it never makes them smaller.
      const widest = Math.max(...lines.map((l) => font.widthOfTextAtSize(l, FONT_SIZE)), 1);
      const fitsHeight = (LABEL_SHEET.height - 2 * PADDING) / (count * 1.15);
      const size = Math.max(MIN_FONT_SIZE, Math.min(FONT_SIZE, fitsHeight, (FONT_SIZE * usable) / widest));
      if (merged)
        lines.push(
          parcelsLine(
            label.parcels.map((p) => encodable(p, font)),
            font,
            size,
            usable,
          ),
        );
      const leading = size * 1.15;
      lines.slice(0, Math.floor((LABEL_SHEET.height - PADDING) / leading)).forEach((line, n) => {
        const text = fitted(line, font, size, usable);
        page.drawText(text, { x, y: top - PADDING - size - n * leading, size, font });
      });
    });
  }
  return pdf.save();
}
