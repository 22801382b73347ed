import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import {
  MAPPING_MAX_BYTES,
  ROLL_MAX_BYTES,
  ROLL_MAX_FILES,
  RollDatingInput,
  type RollDating,
} from '@opp/contracts';
import {
  AppError,
  badRequest,
  payloadTooLarge,
  unsupportedMediaType,
  validationFailed,
} from '../../errors.ts';
import type { RollFile, RollReading } from './roll-import.service.ts';

/*
 * The provider console's roll upload as it arrives: the data files (`file`, one or several), either
 * a built-in format (`format`) or a mapping file (`mapping`), and what the values date from
 * (`fiscalYear`, `valuationDate`: optional). Each file is stored in a temporary folder
 * under a name of the server's (a person's file name may be anything), and keeps its own name for every
 * message and the run's history.
 */

const GIB = 1024 * 1024 * 1024;
export const MAX_SIZE_TEXT =
  ROLL_MAX_BYTES >= GIB ? `${ROLL_MAX_BYTES / GIB} GiB` : `${ROLL_MAX_BYTES / 1024 ** 2} MiB`;

export interface RollUpload {
  /** The temporary folder holding every file; the caller removes it. */
  folder: string;
  reading: RollReading;
  files: RollFile[];
  /** The data files' bytes. */
  bytes: number;
  /** `records`: the record count of the preview the provider confirmed; null when not sent. */
  expectedRecords: number | null;
}

/** A record count as a form field sends it: digits only, at most the largest integer column. */
function recordCount(raw: string): number {
  const value = raw.trim();
  const n = Number(value);
  if (!/^\d{1,10}$/.test(value) || n > 2_147_483_647)
    throw validationFailed('records', 'The record count must be a whole number of records (0 or more).');
  return n;
}

/** The name people see in the history: no folders, no control characters, bounded. */
const displayName = (raw: string) =>
  [...(path.basename(raw.replace(/\\/g, '/')) || 'roll')]
    .filter((ch) => ch >= ' ' && ch !== '\u007f')
    .join('')
    .slice(0, 200);

/**
 * Receives the upload into a new temporary folder. Every way a body can be wrong (too big, too many
 * files, an unexpected part, no data file) is a 4xx naming the part; the folder is then already gone.
 */
export async function receiveRollUpload(request: FastifyRequest): Promise<RollUpload> {
  if (!request.isMultipart())
    throw unsupportedMediaType('Send the roll as multipart/form-data with the file in the "file" field');
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'opp-roll-'));
  const files: RollFile[] = [];
  let mappingFile: string | undefined;
  let mappingName: string | undefined;
  let format: string | undefined;
  let expectedRecords: number | null = null;
  let dating: RollDating | undefined;
  const datingFields: Record<string, string> = {};
  let bytes = 0;
  let stored = 0;
  try {
    for await (const part of request.parts({
      limits: { fileSize: ROLL_MAX_BYTES, files: ROLL_MAX_FILES + 1, fields: 10 },
    })) {
      if (part.type === 'field') {
        if (part.fieldname === 'records') {
          expectedRecords = recordCount(String(part.value));
          continue;
        }
        const datingField = part.fieldname === 'fiscalYear' || part.fieldname === 'valuationDate';
        if (part.fieldname !== 'format' && !datingField) continue;
        if (part.valueTruncated) throw validationFailed(part.fieldname, 'is too long');
        const value = String(part.value).trim();
        if (value === '') continue;
        if (datingField) datingFields[part.fieldname] = value;
        else format = value;
        continue;
      }
      if (part.fieldname !== 'file' && part.fieldname !== 'mapping') {
        part.file.resume();
        throw validationFailed(
          part.fieldname,
          'unexpected file; send the roll as "file" and a mapping as "mapping"',
        );
      }
      if (part.fieldname === 'mapping' && mappingFile !== undefined) {
        part.file.resume();
        throw validationFailed('mapping', 'send one mapping file');
      }
      const name = displayName(part.filename);
      // The extension is kept: it says how a file is read (.jsonl, .csv, .tsv).
      const ext = /^\.[A-Za-z0-9]{1,10}$/.test(path.extname(name)) ? path.extname(name) : '';
      const filePath = path.join(folder, `${stored++}${ext}`);
      await pipeline(part.file, createWriteStream(filePath));
      if (part.file.truncated) throw payloadTooLarge(`The roll file is larger than ${MAX_SIZE_TEXT}.`);
      const size = (await fs.stat(filePath)).size;
      if (part.fieldname === 'mapping') {
        if (size > MAPPING_MAX_BYTES)
          throw validationFailed(
            'mapping',
            `The mapping file is larger than ${MAPPING_MAX_BYTES / 1024 ** 2} MiB.`,
          );
        mappingFile = filePath;
        mappingName = name;
      } else {
        files.push({ path: filePath, name });
        bytes += size;
      }
    }
    if (files.length === 0) throw validationFailed('file', 'Choose a roll file to publish.');
    dating = rollDatingOf(datingFields);
    if (files.length > ROLL_MAX_FILES)
      throw validationFailed('file', `Send at most ${ROLL_MAX_FILES} files of one export.`);
  } catch (err) {
    await fs.rm(folder, { recursive: true, force: true });
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; statusCode?: number };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE')
      throw payloadTooLarge(`The roll file is larger than ${MAX_SIZE_TEXT}.`);
    if (e.code === 'FST_FILES_LIMIT')
      throw validationFailed('file', `Send at most ${ROLL_MAX_FILES} files of one export.`);
    if (e.statusCode === 413) throw payloadTooLarge('The upload has too many parts');
    if (e.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw unsupportedMediaType('Send the roll as multipart/form-data with the file in the "file" field');
    throw badRequest('The upload is not a valid multipart/form-data body');
  }
  return {
    folder,
    reading: {
      ...(format !== undefined ? { format } : {}),
      ...(mappingFile !== undefined ? { mappingFile, mappingName } : {}),
      ...(dating ? { dating } : {}),
    },
    files,
    bytes,
    expectedRecords,
  };
}

/**
 * The fiscal year and valuation date given with a roll (upload fields or the command's options), checked:
 * a 400 names the field. Absent fields are null.
 */
export function rollDatingOf(fields: { fiscalYear?: string; valuationDate?: string }): RollDating {
  const parsed = RollDatingInput.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw validationFailed(String(issue.path[0] ?? 'fiscalYear'), issue.message);
  }
  return { fiscalYear: parsed.data.fiscalYear ?? null, valuationDate: parsed.data.valuationDate ?? null };
}
