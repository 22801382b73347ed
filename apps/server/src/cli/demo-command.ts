import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { demoRepository } from '../features/demo/demo.repository.ts';
import { createDemo, DEMO_STATE, type DemoLogin, type DemoSummary } from '../features/demo/demo.service.ts';
import { rollsRepository } from '../features/rolls/rolls.repository.ts';
import { STALE_SECONDS } from '../features/rolls/roll-publishing.service.ts';
import { recordCliAudit } from './cli-audit.ts';
import { withDatabase } from './database.ts';
import { parse, positiveInt, write, type CliIo } from './io.ts';

export const DEMO_USAGE = `Usage: portal demo [--parcels N]

Creates the demo: three Maine towns (Denmark, Harrison, Bridgton) with synthetic
records, photos, a banner, contacts and a payment link, and two demo logins whose
passwords are printed (new ones on every run). Running it again republishes the
same demo rolls. Towns of those names that hold real data are never touched.

Options:
  --parcels N   total parcels across the three towns (default 6,800)
  -h, --help    show this help`;

/** Where the embedded database keeps the demo logins, for whoever missed them on the first start. */
export const demoLoginsFile = (config: Config) => path.join(config.dataDir, 'demo-logins.txt');

export async function demoCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, { parcels: { type: 'string' } });
  if (values.help) {
    write(io.stdout, DEMO_USAGE);
    return 0;
  }
  const parcels = positiveInt(values.parcels, '--parcels', 1_000_000);
  return withDatabase(io, async (database, config) => {
    const started = performance.now();
    const summary = await createDemo(database.db, { parcels, onStep: (m) => write(io.stdout, `  ${m}`) });
    await auditDemo(database, summary);
    write(io.stdout, `Demo data ready in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    printLogins(io, summary.logins, saveLogins(config, summary));
    return 0;
  });
}

/**
 * Start-up work for `serve`: frees imports left running by a process that died, and on the first start
 * of an empty embedded database (PORTAL_DEMO not 0) creates the demo. Returns the demo, if made.
 */
export async function prepareOnStart(
  database: Database,
  config: Config,
  io: CliIo,
  options: { demoParcels?: number } = {},
): Promise<DemoSummary | null> {
  // Embedded: this process holds the folder lock, so no other import can be running.
  await rollsRepository.sweepAbandoned(
    database.db,
    database.engine === 'pglite' ? 0 : STALE_SECONDS,
    database.engine === 'pglite' ? 0 : config.rollRetireSeconds * 1000,
  );
  if (config.databaseUrl || !config.demo || !(await demoRepository.isEmpty(database.db))) return null;
  write(io.stdout, 'First start with an empty database: creating the demo towns (PORTAL_DEMO=0 skips this)…');
  const summary = await createDemo(database.db, {
    parcels: options.demoParcels,
    onStep: (m) => write(io.stdout, `  ${m}`),
  });
  await auditDemo(database, summary);
  saveLogins(config, summary);
  return summary;
}

/**
 * The demo replaces towns' rolls, images and contacts and sets the demo logins' passwords: admin changes,
 * audited like any other (one entry per town, one for the logins; never the passwords).
 */
async function auditDemo(database: Database, summary: DemoSummary): Promise<void> {
  for (const town of summary.towns)
    await recordCliAudit(database.db, {
      clientId: town.clientId,
      action: 'demo.publish',
      entity: 'client',
      entityId: town.clientId,
      after: { City: town.city, StateProvince: town.state, Parcels: town.parcels },
    });
  await recordCliAudit(database.db, {
    action: 'demo.logins',
    entity: 'user',
    after: { Usernames: summary.logins.map((l) => l.username) },
  });
}

/** Writes the logins beside the embedded database (owner-only); null with a PostgreSQL server. */
function saveLogins(config: Config, summary: DemoSummary): string | null {
  if (config.databaseUrl) return null;
  const file = demoLoginsFile(config);
  const lines = [
    `Open Property Portal demo logins, created ${new Date().toISOString()}.`,
    'Demo data only; change or delete these accounts before real use.',
    '',
    ...summary.logins.map((l) => `${l.username}  ${l.password}  (${l.label})`),
    '',
  ];
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(file, lines.join('\n'), { mode: 0o600 });
  return file;
}

export function printLogins(io: CliIo, logins: DemoLogin[], savedIn: string | null) {
  write(io.stdout, `Demo logins (${DEMO_STATE} demo towns; demo data only):`);
  for (const l of logins) write(io.stdout, `  ${l.label}: username ${l.username}  password ${l.password}`);
  if (savedIn) write(io.stdout, `  (also saved in ${savedIn})`);
}
