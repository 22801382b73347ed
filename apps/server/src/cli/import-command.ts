import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fillPercent, resolveStateName, RollDatingInput, type RollDating } from '@opp/contracts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { clientsService } from '../features/clients/clients.service.ts';
import {
  rollImportService,
  RollInputError,
  type RollCheck,
  type RollInput,
  type RollReading,
} from '../features/rolls/roll-import.service.ts';
import { ADJUST_WORDS } from '../features/rolls/import-notes.ts';
import { claimForProcess } from '../features/rolls/roll-publishing.service.ts';
import { cliAuditActor } from './cli-audit.ts';
import { withDatabase } from './database.ts';
import { CliError, parse, positiveInt, required, UsageError, write, type CliIo } from './io.ts';
import { ProgressBar } from './progress.ts';

export const IMPORT_USAGE = `Usage: portal import --state STATE --city CITY FILE
       portal import --state STATE --city CITY --format NAME FILE...
       portal import --state STATE --city CITY --mapping MAPPING.json FILE...
       portal import --list-formats

Publishes FILE as the town's roll: its whole property set is replaced in one step.
FILE is JSON Lines (.jsonl or .ndjson, one record per line) or CSV (.csv, one
record per row); docs/import-format.md describes both. With --format or --mapping
the files are the town's own export (CSV or TSV, several joined by a key), read
through a built-in format or a mapping file. Every record is checked before
anything is written: a file with any problem changes nothing, the problems are
listed by line, and the command exits with status 1.

Options:
  --state STATE       state name or abbreviation (Maine, ME)
  --city CITY         the client's city or town (create it first: portal client add)
  --format NAME       read the files as a built-in format (see --list-formats)
  --mapping FILE      read the files through a mapping file (docs/import-format.md)
  --fiscal-year YEAR  the fiscal (tax) year the values are for, e.g. 2014 (else the
                      latest tax year the records give, if any)
  --valuation-date D  the date the values are as of (YYYY-MM-DD), e.g. 2013-01-01;
                      the town's pages show both beside the day it was published
  --list-formats      list the built-in formats, one a line
  --dry-run           map and check everything, write nothing: prints the record
                      count, each field's fill rate, unused and absent columns,
                      warnings and problems; with --state and --city, what it
                      would add, remove and change in the town's published roll
  --preview N         print the first N records as JSON Lines, write nothing
  -h, --help          show this help`;

/**
 * `portal import`. Returns the exit code. What the files mean, the dry run and the publishing run are the
 * import service's (features/rolls/roll-import.service.ts), shared with the console's upload; this
 * reads the arguments, prints, and holds the client's lock.
 */
export async function importCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      state: { type: 'string' },
      city: { type: 'string' },
      format: { type: 'string' },
      mapping: { type: 'string' },
      'fiscal-year': { type: 'string' },
      'valuation-date': { type: 'string' },
      'list-formats': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      preview: { type: 'string' },
    },
    true,
  );
  if (values.help) {
    write(io.stdout, IMPORT_USAGE);
    return 0;
  }
  if (values['list-formats']) {
    const formats = rollImportService.formats();
    const width = Math.max(...formats.map((f) => f.Name.length));
    for (const f of formats) write(io.stdout, `${f.Name.padEnd(width)}  ${f.Description}`);
    return 0;
  }
  const preview = positiveInt(values.preview, '--preview', 10_000);
  const checkOnly = values['dry-run'] === true || preview !== undefined;
  if (values.format !== undefined && values.mapping !== undefined)
    throw new UsageError('give --format or --mapping, not both');
  const mapped = values.format !== undefined || values.mapping !== undefined;
  // A dry run or a preview writes nothing: it needs no town (but checks one that is named).
  const stateArg = checkOnly ? values.state : required(values.state, '--state');
  const city = checkOnly ? values.city?.trim() : required(values.city, '--city').trim();
  if (positionals.length === 0) throw new UsageError('FILE is required');
  if (!mapped && positionals.length !== 1) throw new UsageError('give exactly one FILE');
  const state = stateArg === undefined ? undefined : resolveStateName(stateArg);
  if (stateArg !== undefined && !state)
    throw new CliError(`unknown state "${stateArg}" (use a US state name or abbreviation, e.g. Maine or ME)`);
  const files = positionals.map((p) => path.resolve(p));
  let size = 0;
  for (const file of files) size += readableSize(file);
  const reading: RollReading = {
    dating: datingOptions(values['fiscal-year'], values['valuation-date']),
    ...(values.format !== undefined ? { format: values.format } : {}),
    ...(values.mapping !== undefined ? { mappingFile: path.resolve(values.mapping) } : {}),
  };
  let input: RollInput;
  try {
    input = await rollImportService.open(
      reading,
      files.map((p) => ({ path: p, name: path.basename(p) })),
    );
  } catch (err) {
    if (!(err instanceof RollInputError)) throw err;
    if (err.stage === 'roll-file') throw new CliError(err.message);
    if (err.stage === 'files')
      throw new CliError(`the files do not fit ${err.subject}; nothing was changed`, err.problems);
    if (values.format !== undefined)
      throw new CliError(`--format ${values.format}: ${err.problems.join('; ')}`);
    throw new CliError(`the mapping ${err.subject} cannot be used`, err.problems);
  }
  const { fileName } = input;

  if (checkOnly) {
    // A dry run for a named town compares the files with what it has published.
    if (!state || !city) return check(io, { input, preview, dryRun: values['dry-run'] === true });
    return withDatabase(io, async (database) => {
      const client = await clientsService.findByStateCity(database.db, state, city);
      if (!client)
        throw new CliError(
          `there is no client "${city}, ${state}". Create it first: portal client add --state "${state}" --city "${city}"`,
        );
      return check(io, {
        input,
        preview,
        dryRun: values['dry-run'] === true,
        town: { db: database.db, clientId: client.id },
      });
    });
  }

  return withDatabase(io, async (database, config) => {
    const db = database.db;
    // The embedded engine's folder is this process's alone: no reader can still be using a replaced
    // roll. On a PostgreSQL server, API nodes may be.
    const retireAfterMs = database.engine === 'pglite' ? 0 : config.rollRetireSeconds * 1000;
    const client = await clientsService.findByStateCity(db, state!, city!);
    if (!client)
      throw new CliError(
        `there is no client "${city}, ${state}". Create it first: portal client add --state "${state}" --city "${city}"`,
      );
    // The client's import lock, held until this command's database closes or this process dies
    // (features/rolls/import-lock.ts).
    const claim = await claimForProcess(db, client.id, retireAfterMs);
    if (!claim.ok) {
      const live = claim.running;
      throw new CliError(
        claim.otherProcess
          ? `a roll for ${client.city}, ${state} is being published right now by another process${live ? ` (${live.fileName}, run ${live.id})` : ''}; try again when it is done`
          : `a roll for ${client.city}, ${state} is being published right now (${live!.fileName}, run ${live!.id}); try again when it is done`,
      );
    }
    const { interrupted } = claim;
    if (interrupted)
      write(
        io.stderr,
        `The previous import for ${client.city}, ${state} (${interrupted.fileName}, run ${interrupted.id}) was interrupted: the process running it stopped before it finished (killed or crashed). Nothing from it was published; it is marked failed and this import goes ahead.`,
      );

    // A mapped export is read whole before the first record: the bar counts records, not bytes.
    const bar = new ProgressBar(io, input.mapped ? 0 : size);
    const started = performance.now();
    let outcome;
    let published: number | undefined;
    try {
      const run = await rollImportService.createRun(
        db,
        { clientId: client.id, userId: null, actor: `portal import (${cliUser()})` },
        input,
        cliAuditActor(),
      );
      outcome = await rollImportService.publish(
        db,
        run,
        input.source({ onRead: bar.onRead }),
        (p) => {
          bar.onProgress(p);
          if (p.phase !== 'done') return;
          published = performance.now();
          if (retireAfterMs > 0)
            write(
              io.stdout,
              `Published. Any roll it replaces stays readable for ${config.rollRetireSeconds} s (for requests still reading it), then is removed.`,
            );
        },
        { engine: database.engine, retireAfterMs, checks: input },
      );
    } catch (err) {
      bar.clear();
      if (isUniqueViolation(err))
        throw new CliError(
          `another import for ${client.city}, ${state} started at the same moment; try again`,
        );
      throw new CliError(`the import failed and nothing was changed: ${(err as Error).message}`);
    }
    bar.clear();
    const seconds = ((published ?? performance.now()) - started) / 1000;
    // A rejected file's warnings wait for the run that publishes it (a dry run lists them too): what
    // a clerk must fix first is the problems.
    if (outcome.ok) printNotes(io, outcome, input);
    if (!outcome.ok) {
      for (const e of outcome.errors) write(io.stderr, e);
      const more = outcome.errorCount - outcome.errors.length;
      if (more > 0) write(io.stderr, `… and ${more.toLocaleString('en-US')} more`);
      write(
        io.stderr,
        `portal import: ${fileName} was rejected: ${outcome.errorCount.toLocaleString('en-US')} problem${outcome.errorCount === 1 ? '' : 's'} in ${outcome.total.toLocaleString('en-US')} records. Nothing was changed.`,
      );
      return 1;
    }
    const rate = seconds > 0 ? Math.round(outcome.total / seconds) : outcome.total;
    write(
      io.stdout,
      `Imported ${outcome.total.toLocaleString('en-US')} records into ${client.city}, ${state} in ${seconds.toFixed(1)} s (${rate.toLocaleString('en-US')} records/s); import run ${outcome.run.id}.`,
    );
    return 0;
  });
}

/** --fiscal-year and --valuation-date, checked as the console's upload checks them. */
function datingOptions(fiscalYear: string | undefined, valuationDate: string | undefined): RollDating {
  const parsed = RollDatingInput.safeParse({ fiscalYear, valuationDate });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const option = issue.path[0] === 'valuationDate' ? '--valuation-date' : '--fiscal-year';
    throw new UsageError(`${option}: ${issue.message}`);
  }
  return { fiscalYear: parsed.data.fiscalYear ?? null, valuationDate: parsed.data.valuationDate ?? null };
}

function cliUser(): string {
  try {
    return `${os.userInfo().username}@${os.hostname()}`;
  } catch {
    return os.hostname();
  }
}

/** The size of a file the command can read, or the reason it cannot. */
function readableSize(file: string): number {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new CliError(`${file} is not a file`);
    fs.accessSync(file, fs.constants.R_OK);
    return stat.size;
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/**
 * The warnings and the values the mapping left out or changed, as a dry run and an import both report
 * them; the optional columns the files lack are named.
 */
function printNotes(
  io: CliIo,
  notes: Pick<RollCheck, 'warnings' | 'warningCount' | 'adjusted'>,
  input: RollInput,
  out = io.stdout,
): void {
  const n = (x: number) => x.toLocaleString('en-US');
  if (input.absentColumns.length)
    write(out, `Optional columns the files do not have: ${input.absentColumns.join(', ')}`);
  for (const a of notes.adjusted) {
    write(out, `${a.field}: ${n(a.count)} value${a.count === 1 ? '' : 's'} ${ADJUST_WORDS[a.kind]}`);
    for (const e of a.examples) write(out, `  ${e}`);
  }
  if (notes.warningCount) {
    write(
      out,
      `${n(notes.warningCount)} warning${notes.warningCount === 1 ? '' : 's'} (values published as given):`,
    );
    for (const w of notes.warnings) write(out, `  ${w}`);
    if (notes.warningCount > notes.warnings.length)
      write(out, `  … and ${n(notes.warningCount - notes.warnings.length)} more`);
  }
}

/**
 * --dry-run and --preview: the whole input mapped and checked as an import would, nothing written.
 * Exits 1 when the import would have been rejected.
 */
async function check(
  io: CliIo,
  run: {
    input: RollInput;
    preview: number | undefined;
    dryRun: boolean;
    town?: { db: Parameters<typeof rollImportService.publish>[0]; clientId: number };
  },
): Promise<number> {
  let shown = 0;
  const { fileName } = run.input;
  const report = await rollImportService.check(run.input, {
    ...(run.town ? { town: run.town } : {}),
    onRecord: (value) => {
      if (run.preview !== undefined && shown < run.preview) {
        shown++;
        write(io.stdout, JSON.stringify(value));
      }
    },
  });
  // With --preview alone, standard output is JSON Lines only; what the check found goes to stderr.
  const out = run.dryRun ? io.stdout : io.stderr;
  if (run.dryRun) {
    const n = (x: number) => x.toLocaleString('en-US');
    write(out, `${fileName}: ${n(report.records)} records`);
    for (const h of run.input.headerLines)
      write(
        out,
        `${h.file}: the header row is line ${h.line} (the line${h.line > 2 ? 's' : ''} above it ${h.line > 2 ? 'are' : 'is'} not part of the roll)`,
      );
    const changes = report.changes;
    if (changes) {
      write(
        out,
        `Compared with the published roll (${n(changes.published)} records): ${n(changes.added)} added, ${n(changes.removed)} removed, ${n(changes.changed)} changed, ${n(changes.unchanged)} unchanged (by Account)`,
      );
      const first = (label: string, list: typeof changes.firstAdded, count: number) => {
        if (list.length)
          write(
            out,
            `  ${label}: ${list.map((r) => (r.mapLot ? `${r.account} (map/lot ${r.mapLot})` : r.account)).join(', ')}${count > list.length ? ', …' : ''}`,
          );
      };
      first('added', changes.firstAdded, changes.added);
      first('removed', changes.firstRemoved, changes.removed);
      first('changed', changes.firstChanged, changes.changed);
    }
    const published = new Map(changes?.publishedFill.map((f) => [f.field, f]) ?? []);
    write(
      out,
      `Fields filled (records or list items that got a value${changes ? '; the published roll beside it' : ''}):`,
    );
    const width = Math.max(...report.fill.map((f) => f.field.length), 5);
    for (const f of report.fill) {
      const p = published.get(f.field);
      const beside = changes
        ? `   published ${n(p?.filled ?? 0).padStart(7)} of ${n(p?.of ?? changes.published)} (${fillPercent(p?.filled ?? 0, p?.of ?? changes.published)}%)`
        : '';
      write(
        out,
        `  ${f.field.padEnd(width)}  ${n(f.filled).padStart(7)} of ${n(f.of)} (${fillPercent(f.filled, f.of)}%)${beside}`,
      );
    }
    const unused = run.input.unusedColumns.filter((u) => u.count);
    if (unused.length) {
      write(out, 'Columns no mapping reads:');
      for (const u of unused)
        write(
          out,
          `  ${u.file}: ${u.columns.join(', ')}${u.count > u.columns.length ? ` … (${n(u.count)} in all)` : ''}`,
        );
    }
  }
  printNotes(io, report, run.input, out);
  if (report.problemCount === 0) {
    if (run.dryRun)
      write(out, 'No problems found: an import of these files would publish them. Nothing was written.');
    return 0;
  }
  for (const p of report.problems) write(io.stderr, p);
  const more = report.problemCount - report.problems.length;
  if (more > 0) write(io.stderr, `… and ${more.toLocaleString('en-US')} more`);
  write(
    io.stderr,
    `portal import: ${fileName} would be rejected: ${report.problemCount.toLocaleString('en-US')} problem${report.problemCount === 1 ? '' : 's'} in ${report.records.toLocaleString('en-US')} records. Nothing was written.`,
  );
  return 1;
}
