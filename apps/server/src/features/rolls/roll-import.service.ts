import path from 'node:path';
import type { RollDating, RollFormatDto, RollPreviewDto } from '@opp/contracts';
import type { Db } from '../../db/database.ts';
import { auditService, type AuditActor } from '../audit/audit.service.ts';
import {
  importRoll,
  type ImportOptions,
  type ImportOutcome,
  type ImportProgress,
  type RecordSource,
} from './import.service.ts';
import { dryRun, type DryRunReport } from './mapping/dry-run.ts';
import { builtInFormat, listFormats } from './mapping/formats.ts';
import { openMappedSource } from './mapping/mapped-source.ts';
import { loadMappingFile, MappingError, type Mapping } from './mapping/mapping-file.ts';
import { readCsvHeader, recordSourceFor, rollFormatOf, type SourceOptions } from './record-sources.ts';
import { rollsRepository, type ImportRun } from './rolls.repository.ts';
import { ImportNotes, notesDto, type RunNotes } from './import-notes.ts';
import { RollComparison, type ChangedRecord, type RollChanges } from './roll-changes.ts';
import { clientsService } from '../clients/clients.service.ts';

/** Whether the town publishes owner names (an owner column empty on every record is then refused). */
async function publishesOwners(db: Db, clientId: number): Promise<boolean> {
  return (await clientsService.findById(db, clientId))?.publishOwnerNames ?? true;
}

/*
 * The one way into a roll, for the `portal import` command and the provider console's upload alike:
 * which files are read and how (the portal's own format, a built-in format or a mapping file), the dry
 * run that shows what an import would do, and the run that publishes it. Callers only say what they
 * were given and how to report it.
 */

/** How the files are read: a built-in format, a mapping file (a path), or neither (the portal's own format). */
export interface RollReading {
  format?: string;
  mappingFile?: string;
  /** The mapping file's own name, when it is stored under another (an upload). */
  mappingName?: string;
  /** What the provider says the values date from (kept on the run; the public pages show it). */
  dating?: RollDating;
}

export interface RollFile {
  path: string;
  /** The name the person gave it (an upload is stored under a temporary folder). */
  name: string;
}

/** Where a roll comes from, as its import run keeps it. */
export interface RollOrigin {
  format: string | null;
  mapping: string | null;
  mappingJson: Mapping | null;
  files: string[];
  dating: RollDating;
}

export interface RollInput {
  /** The records; a file in the portal's own format is streamed (and reports its bytes read). */
  source: (options?: SourceOptions) => RecordSource;
  /** What the run and every message call the input: `rem.csv, slh.csv (format vision)`. */
  fileName: string;
  origin: RollOrigin;
  /** A mapped export is read whole when opened: its records are counted, not its bytes. */
  mapped: boolean;
  /**
   * The portal fields the format, the mapping or a CSV file's columns fill (a dry run lists them even when
   * no record got a value; `Owners.OwnerName` for an item field); undefined for a JSON Lines file, whose
   * fields are those its records carry.
   */
  mappedFields: string[] | undefined;
  /** Whether the file is in the portal's own format (which has no mapping to declare a field absent in). */
  ownFormat: boolean;
  /** Fields the mapping says the file has none of on purpose. */
  absent: string[] | undefined;
  unusedColumns: Array<{ file: string; columns: string[]; count: number }>;
  /** Files whose header row is below a junk line, and its line. */
  headerLines: Array<{ file: string; line: number }>;
  /** Optional columns the format or mapping reads that the files do not have. */
  absentColumns: string[];
}

/**
 * Why the input cannot be read, before any record: `mapping` (the format or mapping file itself),
 * `files` (the files do not fit it) or `roll-file` (a file in the portal's own format whose name says it
 * is not one). `subject` names what was being used.
 */
export class RollInputError extends Error {
  constructor(
    readonly stage: 'mapping' | 'files' | 'roll-file',
    readonly subject: string,
    readonly problems: string[],
  ) {
    super(`${subject}: ${problems.join('; ')}`);
  }
}

export interface RollCheck extends DryRunReport {
  sample: Array<{ line: number; record: Record<string, unknown> }>;
  /** The comparison with the town's published roll; null when none is published (or no town named). */
  changes: RollChanges | null;
}

/** What a publishing run reports besides its outcome: the same warnings and counts as a dry run. */
export interface PublishOutcome extends ImportOutcome, RunNotes {}

const PLAIN_FILE = 'a roll file must end in .jsonl, .ndjson or .csv';

const mappingName = (reading: RollReading) => reading.mappingName ?? path.basename(reading.mappingFile ?? '');

function readingLabel(reading: RollReading): string | null {
  if (reading.format !== undefined) return `format ${reading.format}`;
  if (reading.mappingFile !== undefined) return `mapping ${mappingName(reading)}`;
  return null;
}

const datingOf = (reading: RollReading): RollDating =>
  reading.dating ?? { fiscalYear: null, valuationDate: null };

export const rollImportService = {
  formats(): RollFormatDto[] {
    return listFormats().map((f) => ({ Name: f.name, Description: f.description }));
  },

  /**
   * Opens the files as records. Throws RollInputError, before any record is read, for an unknown
   * format, a mapping file that cannot be used, a file the mapping has no place for or a column it
   * needs and does not find (one message per column, naming it).
   */
  async open(reading: RollReading, files: RollFile[], options: SourceOptions = {}): Promise<RollInput> {
    if (reading.format !== undefined && reading.mappingFile !== undefined)
      throw new RollInputError('mapping', 'format', ['give a format or a mapping file, not both']);
    const label = readingLabel(reading);
    if (label === null) {
      if (files.length !== 1)
        throw new RollInputError('files', 'files', [
          'give exactly one file in the portal’s own format (several files need a format or a mapping)',
        ]);
      const file = files[0]!;
      if (!rollFormatOf(file.name)) throw new RollInputError('roll-file', file.name, [PLAIN_FILE]);
      // A CSV file's columns say which fields it gives; a JSON Lines file's records do (mappedFields).
      const header = rollFormatOf(file.name) === 'csv' ? readCsvHeader(file.path, file.name) : null;
      if (header && 'problems' in header)
        throw new RollInputError('files', 'the portal’s own format', header.problems);
      return {
        source: (o = options) => recordSourceFor(file.path, file.name, o),
        fileName: file.name,
        origin: {
          format: null,
          mapping: null,
          mappingJson: null,
          files: [file.name],
          dating: datingOf(reading),
        },
        mapped: false,
        mappedFields: header?.fields,
        ownFormat: true,
        absent: undefined,
        unusedColumns: [],
        headerLines: [],
        absentColumns: [],
      };
    }

    let mapping: Mapping;
    try {
      mapping =
        reading.format !== undefined
          ? builtInFormat(reading.format)
          : loadMappingFile(reading.mappingFile!, mappingName(reading));
    } catch (err) {
      if (err instanceof MappingError)
        throw new RollInputError('mapping', reading.format ?? mappingName(reading), err.problems);
      throw err;
    }
    try {
      const input = await openMappedSource(mapping, files, options);
      return {
        source: () => input.source,
        // The run keeps which files were read and how: `a.csv, b.csv (format vision)`.
        fileName: `${input.fileNames.join(', ')} (${label})`,
        origin: {
          format: reading.format ?? null,
          mapping: reading.mappingFile !== undefined ? mappingName(reading) : null,
          mappingJson: reading.format !== undefined ? null : mapping,
          files: input.fileNames,
          dating: datingOf(reading),
        },
        mapped: true,
        mappedFields: Object.keys(mapping.fields),
        ownFormat: false,
        absent: mapping.absent,
        unusedColumns: input.unusedColumns,
        headerLines: input.headerLines,
        absentColumns: input.absentColumns,
      };
    } catch (err) {
      if (err instanceof MappingError)
        throw new RollInputError(
          'files',
          reading.format !== undefined ? `the format ${reading.format}` : mappingName(reading),
          err.problems,
        );
      throw err;
    }
  },

  /**
   * The dry run: every record mapped and checked exactly as an import checks it, nothing written.
   * Keeps the first `sample` records; `onRecord` sees every one (the command's --preview).
   */
  async check(
    input: RollInput,
    options: {
      sample?: number;
      onRecord?: (value: Record<string, unknown>, line: number) => void;
      /** The town, to compare with what it has published and to know whether it publishes owners. */
      town?: { db: Db; clientId: number };
    } = {},
  ): Promise<RollCheck> {
    const sample: RollCheck['sample'] = [];
    const keep = options.sample ?? 0;
    const { town } = options;
    const compare = town ? await RollComparison.load(town.db, town.clientId) : null;
    const report = await dryRun(input.source(), {
      mappedFields: input.mappedFields,
      ownFormat: input.ownFormat,
      absent: input.absent,
      publishesOwners: town ? await publishesOwners(town.db, town.clientId) : true,
      onRecord: (value, line) => {
        if (sample.length < keep) sample.push({ line, record: value });
        compare?.see(value);
        options.onRecord?.(value, line);
      },
    });
    return {
      ...report,
      sample,
      changes: compare?.result(report.fill.map((f) => f.field)) ?? null,
    };
  },

  previewDto(input: RollInput, check: RollCheck): RollPreviewDto {
    const published = new Map(check.changes?.publishedFill.map((f) => [f.field, f]) ?? []);
    const listed = (r: ChangedRecord[]) => r.map((x) => ({ Account: x.account, MapLot: x.mapLot }));
    return {
      SourceFiles: input.origin.files,
      Format: input.origin.format,
      Mapping: input.origin.mapping,
      Records: check.records,
      FiscalYear: input.origin.dating.fiscalYear,
      ValuationDate: input.origin.dating.valuationDate,
      HeaderLines: input.headerLines.map((h) => ({ File: h.file, Line: h.line })),
      AbsentColumns: input.absentColumns,
      Fill: check.fill.map((f) => {
        const p = published.get(f.field);
        return {
          Field: f.field,
          Filled: f.filled,
          Of: f.of,
          ...(check.changes
            ? { PublishedFilled: p?.filled ?? 0, PublishedOf: p?.of ?? check.changes.published }
            : {}),
        };
      }),
      UnusedColumns: input.unusedColumns
        .filter((u) => u.count > 0)
        .map((u) => ({ File: u.file, Columns: u.columns, Count: u.count })),
      Sample: check.sample.map((s) => ({ Line: s.line, Record: s.record })),
      ProblemCount: check.problemCount,
      Problems: check.problems,
      ...notesDto(check),
      Changes: check.changes
        ? {
            Published: check.changes.published,
            Added: check.changes.added,
            Removed: check.changes.removed,
            Changed: check.changes.changed,
            Unchanged: check.changes.unchanged,
            FirstAdded: listed(check.changes.firstAdded),
            FirstRemoved: listed(check.changes.firstRemoved),
            FirstChanged: listed(check.changes.firstChanged),
          }
        : null,
    };
  },

  /**
   * The client's new run, with its origin and its audit entry: they stand or fall together, and the
   * entry names the run whatever its outcome. The caller holds the client's import lock.
   */
  async createRun(
    db: Db,
    target: { clientId: number; userId: number | null; actor: string; expectedRecords?: number | null },
    input: RollInput,
    audit: { actor: AuditActor | null; ip: string | null },
  ): Promise<ImportRun> {
    return db.transaction(async (tx) => {
      const created = await rollsRepository.createRun(tx, {
        ...target,
        fileName: input.fileName,
        origin: input.origin,
      });
      await auditService.record(tx, {
        ...audit,
        clientId: target.clientId,
        action: 'roll.publish',
        entity: 'import_run',
        entityId: created.id,
        after: { FileName: input.fileName },
      });
      return created;
    });
  },

  /**
   * Checks and writes every record of a created run, and publishes the roll when all are good. With
   * `checks` (the input's mapped fields), a file whose needed fields are all empty is refused, as its
   * dry run says; the outcome carries the run's warnings and the values the mapping changed.
   */
  async publish(
    db: Db,
    run: ImportRun,
    source: RecordSource,
    onProgress: (p: ImportProgress) => void,
    options: ImportOptions & { checks?: Pick<RollInput, 'mappedFields' | 'absent' | 'ownFormat'> },
  ): Promise<PublishOutcome> {
    const notes = new ImportNotes({ refusalOnly: true });
    const { checks } = options;
    const owners = checks ? await publishesOwners(db, run.clientId) : true;
    const outcome = await importRoll(
      db,
      {
        clientId: run.clientId,
        userId: run.userId,
        actor: run.actor,
        fileName: run.fileName,
        runId: run.id,
      },
      source,
      onProgress,
      {
        ...options,
        notes,
        finalProblems: () =>
          checks
            ? notes.emptyFields(checks.mappedFields, {
                absent: checks.absent,
                ownFormat: checks.ownFormat,
                publishesOwners: owners,
              })
            : [],
      },
    );
    return { ...outcome, ...notes.summary() };
  },
};
