import fs from 'node:fs';

/*
 * A dBASE table (`.dbf`, as MassGIS ships its assessor tables and every Shapefile carries) read as the
 * rows of a CSV: the field names are the header, each cell the text the table holds, trimmed. Cells are
 * not turned into numbers or dates here (a mapping's transforms read them, as they read CSV text: a
 * date field's `YYYYMMDD` is a date to them). A record marked deleted is not a row.
 *
 * The npm readers turn cells into numbers and local-time dates on the way (the `shapefile` package
 * this server already uses for parcel layers does), which loses what the office wrote (a ZIP's leading
 * zero, a date's day at a time zone's edge); the format is simple enough to read as it is.
 */

export interface DbfTable {
  headers: string[];
  /** One entry per record that is not deleted, with its record number (1 = the first record). */
  rows: Array<{ cells: string[]; record: number }>;
}

const HEADER_END = 0x0d;
const DELETED = 0x2a;
const END_OF_FILE = 0x1a;

/** Reads a DBF file; throws an Error in words a person understands when it is not one. */
export function readDbf(file: string): DbfTable {
  const buf = fs.readFileSync(file);
  if (buf.length < 33) throw new Error('not a dBASE table (too short)');
  const recordCount = buf.readUInt32LE(4);
  const headerLength = buf.readUInt16LE(8);
  const recordLength = buf.readUInt16LE(10);
  if (headerLength < 33 || headerLength > buf.length || recordLength < 1)
    throw new Error('not a dBASE table (its header does not add up)');
  const decode = decoderFor(buf, headerLength, recordLength, recordCount);
  const fields: Array<{ name: string; offset: number; length: number }> = [];
  let offset = 1; // each record starts with its deletion flag
  for (let at = 32; at + 32 <= headerLength && buf[at] !== HEADER_END; at += 32) {
    const nameBytes = buf.subarray(at, at + 11);
    const end = nameBytes.indexOf(0);
    const name = decode(nameBytes.subarray(0, end === -1 ? 11 : end)).trim();
    const length = buf[at + 16]!;
    fields.push({ name, offset, length });
    offset += length;
  }
  if (fields.length === 0) throw new Error('not a dBASE table (it names no fields)');
  if (offset > recordLength) throw new Error('not a dBASE table (its fields are longer than its records)');
  const rows: DbfTable['rows'] = [];
  for (let n = 0; n < recordCount; n++) {
    const start = headerLength + n * recordLength;
    if (start + recordLength > buf.length || buf[start] === END_OF_FILE) break;
    if (buf[start] === DELETED) continue;
    rows.push({
      record: n + 1,
      cells: fields.map((f) => decode(buf.subarray(start + f.offset, start + f.offset + f.length)).trim()),
    });
  }
  return { headers: fields.map((f) => f.name), rows };
}

/**
 * UTF-8 when the records are valid UTF-8 (what current tools write), else Windows-1252, the code page of
 * older tables (a byte that is not valid UTF-8 is far likelier an accented letter in 1252 than anything).
 */
function decoderFor(
  buf: Buffer,
  headerLength: number,
  recordLength: number,
  recordCount: number,
): (bytes: Uint8Array) => string {
  const body = buf.subarray(headerLength, Math.min(buf.length, headerLength + recordLength * recordCount));
  let utf8 = true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    utf8 = false;
  }
  const decoder = new TextDecoder(utf8 ? 'utf-8' : 'windows-1252');
  return (bytes) => decoder.decode(bytes).replace(/\0/g, '');
}
