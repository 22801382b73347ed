import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveStateName } from '@opp/contracts';
import { isUniqueViolation } from '../features/clients/clients.provider.repository.ts';
import { clientsRepository } from '../features/clients/clients.repository.ts';
import { importRoll } from '../features/imports/import.service.ts';
import { recordSourceFor, rollFormatOf } from '../features/imports/record-sources.ts';
import { rollsRepository } from '../features/imports/rolls.repository.ts';
import { STALE_SECONDS } from '../features/roll-publishing/roll-publishing.service.ts';
import { recordCliAudit } from './cli-audit.ts';
import { withDatabase } from './database.ts';
import { CliError, parse, required, UsageError, write, type CliIo } from './io.ts';
import { ProgressBar } from './progress.ts';

export const IMPORT_USAGE = `Usage: portal import --state STATE --city CITY FILE

Publishes FILE as the town's roll: its whole property set is replaced in one step.
FILE is JSON Lines (.jsonl or .ndjson, one record per line) or CSV (.csv, one
record per row); docs/import-format.md describes both. Every record is checked
before anything is written: a file with any problem changes nothing, the problems
are listed by line, and the command exits with status 1.

Options:
  --state STATE   state name or abbreviation (Maine, ME)
  --city CITY     the client's city or town (create it first: portal client add)
  -h, --help      show this help`;

/** `portal import`. Returns the exit code. */
export async function importCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { state: { type: 'string' }, city: { type: 'string' } }, true);
  if (values.help) {
    write(io.stdout, IMPORT_USAGE);
    return 0;
  }
  const stateArg = required(values.state, '--state');
  const city = required(values.city, '--city').trim();
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? 'give exactly one FILE' : 'FILE is required');
  const state = resolveStateName(stateArg);
  if (!state)
    throw new CliError(`unknown state "${stateArg}" (use a US state name or abbreviation, e.g. Maine or ME)`);
  const file = path.resolve(positionals[0]!);
  if (!rollFormatOf(file))
    throw new CliError(`${path.basename(file)}: a roll file must end in .jsonl, .ndjson or .csv`);
  let size: number;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new CliError(`${file} is not a file`);
    fs.accessSync(file, fs.constants.R_OK);
    size = stat.size;
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }

  return withDatabase(io, async (database, config) => {
    const db = database.db;
    // The embedded engine's folder is this process's alone: no reader can still be using a replaced
    // roll. On a PostgreSQL server, API nodes may be.
    const retireAfterMs = database.engine === 'pglite' ? 0 : config.rollRetireSeconds * 1000;
    const client = await clientsRepository.findByStateCity(db, state, city);
    if (!client)
      throw new CliError(
        `there is no client "${city}, ${state}". Create it first: portal client add --state "${state}" --city "${city}"`,
      );
    // An import left running by a process that died (embedded: nothing else can be running now).
    await rollsRepository.sweepAbandoned(db, database.engine === 'pglite' ? 0 : STALE_SECONDS, retireAfterMs);
    const running = await rollsRepository.findRunning(db, client.id);
    if (running)
      throw new CliError(
        `a roll for ${client.city}, ${state} is being published right now (${running.fileName}, run ${running.id}); try again when it is done`,
      );

    const bar = new ProgressBar(io, size);
    const started = performance.now();
    const target = {
      clientId: client.id,
      userId: null,
      actor: `portal import (${cliUser()})`,
      fileName: path.basename(file),
    };
    let outcome;
    let published: number | undefined;
    try {
      // The run and its audit entry stand or fall together, as for an upload over HTTP
      // (roll-publishing.service.ts): the entry names the run, whatever its outcome.
      const run = await db.transaction(async (tx) => {
        const created = await rollsRepository.createRun(tx, target);
        await recordCliAudit(tx, {
          clientId: client.id,
          action: 'roll.publish',
          entity: 'import_run',
          entityId: created.id,
          after: { FileName: target.fileName },
        });
        return created;
      });
      outcome = await importRoll(
        db,
        { ...target, runId: run.id },
        recordSourceFor(file, file, { onRead: bar.onRead }),
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
        { engine: database.engine, retireAfterMs },
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
    if (!outcome.ok) {
      for (const e of outcome.errors) write(io.stderr, e);
      const more = outcome.errorCount - outcome.errors.length;
      if (more > 0) write(io.stderr, `… and ${more.toLocaleString('en-US')} more`);
      write(
        io.stderr,
        `portal import: ${path.basename(file)} was rejected: ${outcome.errorCount.toLocaleString('en-US')} problem${outcome.errorCount === 1 ? '' : 's'} in ${outcome.total.toLocaleString('en-US')} records. Nothing was changed.`,
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

function cliUser(): string {
  try {
    return `${os.userInfo().username}@${os.hostname()}`;
  } catch {
    return os.hostname();
  }
}
