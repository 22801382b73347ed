import fs from 'node:fs';
import path from 'node:path';
import { PARCEL_LAYER_KEY_CHOICES, ParcelLayerKey, resolveStateName } from '@opp/contracts';
import { clientsRepository } from '../features/clients/clients.repository.ts';
import { ParcelFileError } from '../features/parcels/parcel-files.ts';
import { formatParcelReport, importParcelFile } from '../features/parcels/parcel-import.ts';
import { cliAuditActor } from './cli-audit.ts';
import { withDatabase } from './database.ts';
import { CliError, parse, required, UsageError, write, type CliIo } from './io.ts';

export const PARCELS_USAGE = `Usage: portal parcels import --state STATE --city CITY [--key ${ParcelLayerKey.options.join('|')}]
                             [--property NAME] [--dry-run] [--confirm-loss] FILE

Replaces the town's parcel map with the polygons in FILE: a GeoJSON
FeatureCollection, a TopoJSON file, or a zipped Shapefile (.zip with its .shp,
.dbf and .prj; reprojected to WGS 84 longitude/latitude). The map belongs to
the town, not to a roll: it stays when a new roll is published, and joins the
published roll by key whenever it is read.

Each feature's key (its --property) is matched to the records' Map/Lot (or
Account, or with --key LocId the MassGIS LOC_ID a MassGIS Level 3 table gives
every record, condominium units included) the way search matches map/lots:
case and punctuation runs alike. A
record whose map/lot has no shape of its own (a condominium unit, 4-23-906)
sits on the parcel of its longest map/lot prefix that has one (4-23). Without
--property, the feature property that matches the most records is read (the
--key's own name, MAP_PAR_ID, MAP_LOT, ML, PARCEL_ID, PID and LOC_ID are tried
first), and the report names it and the runner-up. A report lists the features
read, the records matched, the records without a shape and the shapes without
a record (the first 20 of each). Rings that are not closed are closed; rings
with fewer than four positions or no area are dropped, and a feature left with
none is left out; a feature more than 100 miles from the rest of the layer is
set aside (warnings). A feature without polygon coordinates, one that is not a
polygon, coordinates outside WGS 84, or a file that matches no record is a
problem: a file with any problem changes nothing and the command (a dry run
too) exits with status 1. A file that would leave more than 5% fewer records
on the map than today's changes nothing and exits with status 1 unless
--confirm-loss is given; the report lists the records that would lose their
shape.

Options:
  --state STATE     state name or abbreviation (Massachusetts, MA)
  --city CITY       the client's city or town
  --key FIELD       the record field the shapes are keyed by: MapLot (default),
                    Account or LocId (MassGIS LOC_ID, read from Reference1)
  --property NAME   the feature property holding the key (default: the one
                    that matches the most records)
  --dry-run         print the report, write nothing
  --confirm-loss    replace the map even if fewer records would be on it
  -h, --help        show this help`;

/** `portal parcels …`. Returns the exit code. */
export async function parcelsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    write(sub === undefined ? io.stderr : io.stdout, PARCELS_USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'import') throw new UsageError(`unknown parcels command "${sub}" (use: parcels import)`);
  const { values, positionals } = parse(
    rest,
    {
      state: { type: 'string' },
      city: { type: 'string' },
      key: { type: 'string' },
      property: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'confirm-loss': { type: 'boolean' },
    },
    true,
  );
  if (values.help) {
    write(io.stdout, PARCELS_USAGE);
    return 0;
  }
  const stateArg = required(values.state, '--state');
  const city = required(values.city, '--city').trim();
  const key = ParcelLayerKey.safeParse(values.key ?? 'MapLot');
  if (!key.success) throw new UsageError(`--key must be ${PARCEL_LAYER_KEY_CHOICES}, got "${values.key}"`);
  const property = values.property?.trim() || undefined;
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? 'give exactly one FILE' : 'FILE is required');
  const state = resolveStateName(stateArg);
  if (!state)
    throw new CliError(`unknown state "${stateArg}" (use a US state name or abbreviation, e.g. Maine or ME)`);
  const file = path.resolve(positionals[0]!);
  try {
    if (!fs.statSync(file).isFile()) throw new CliError(`${file} is not a file`);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const dryRun = values['dry-run'] === true;

  return withDatabase(io, async (database) => {
    const db = database.db;
    const client = await clientsRepository.findByStateCity(db, state, city);
    if (!client)
      throw new CliError(
        `there is no client "${city}, ${state}". Create it first: portal client add --state "${state}" --city "${city}"`,
      );
    const started = performance.now();
    const fileName = path.basename(file);
    let report;
    try {
      // The same import as the provider console's upload (parcels.routes.ts).
      report = await importParcelFile(db, {
        clientId: client.id,
        filePath: file,
        fileName,
        key: key.data,
        property,
        dryRun,
        confirmLoss: values['confirm-loss'] === true,
        audit: cliAuditActor(),
      });
    } catch (err) {
      if (err instanceof ParcelFileError) throw new CliError(err.message);
      throw err;
    }
    const lines = formatParcelReport(report);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (report.problems.count > 0) {
      for (const l of lines) write(io.stderr, l);
      write(
        io.stderr,
        `portal parcels import: ${fileName} was rejected: ${report.problems.count.toLocaleString('en-US')} problem${report.problems.count === 1 ? '' : 's'}. Nothing was changed.`,
      );
      return 1;
    }
    if (report.needsConfirmation) {
      for (const l of lines) write(io.stderr, l);
      write(
        io.stderr,
        `portal parcels import: ${fileName} would leave ${(report.loss!.recordsOnMapNow - report.loss!.recordsOnMapAfter).toLocaleString('en-US')} fewer records on ${client.city}, ${state}'s map. ${dryRun ? 'A dry run changes nothing; to replace the map anyway, run' : 'Nothing was changed. To replace it anyway, run again'} with --confirm-loss.`,
      );
      return 1;
    }
    for (const l of lines) write(io.stdout, l);
    write(
      io.stdout,
      dryRun
        ? `\nDry run: ${client.city}, ${state}'s parcel map was not changed.`
        : `\nImported ${report.shapes.toLocaleString('en-US')} parcel shapes into ${client.city}, ${state} in ${seconds} s; they replace its previous map.`,
    );
    return 0;
  });
}
