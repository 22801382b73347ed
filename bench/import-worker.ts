import fs from 'node:fs';
import os from 'node:os';
import { openDatabase, type Database } from '../apps/server/src/db/database.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { clientsRepository } from '../apps/server/src/features/clients/clients.repository.ts';
import { importRoll, type RecordSource } from '../apps/server/src/features/rolls/import.service.ts';
import { rollsRepository } from '../apps/server/src/features/rolls/rolls.repository.ts';
import { jsonlSource } from '../apps/server/src/features/rolls/record-sources.ts';
import { clientRecords, type ClientSpec } from './lib/generator.ts';
import { peakRssMb } from './lib/peak-rss.ts';

/*
 * Builds data through the project's own import (importRoll, the code behind `portal import` and the
 * admin upload), in a process of its own so its peak memory is the import's and nothing else's.
 * The task arrives as JSON in argv[2]; the result is the last stdout line, prefixed "RESULT ".
 */

export type EngineTarget = { engine: 'pglite'; dataDir: string } | { engine: 'postgres'; url: string };

export type ImportTask =
  | {
      kind: 'build';
      target: EngineTarget;
      seed: string;
      big: ClientSpec;
      bigJsonl: string;
      /** Where the county import's figure is kept, so a resumed build still reports it. */
      bigFigureFile: string;
      towns: ClientSpec[];
      /**
       * After the county, tell the parent ('paused') and wait for 'resume' before the towns: another
       * engine's county import is being measured meanwhile.
       */
      pauseAfterBig?: boolean;
    }
  | { kind: 'probe'; target: EngineTarget; client: ClientSpec; jsonl: string }
  /**
   * Creates and migrates the database, in a process of its own: creating an embedded database (initdb)
   * peaks near 1 GB for a moment, which is not the import's memory.
   */
  | { kind: 'prepare'; target: EngineTarget };

export interface ImportFigure {
  clientId: number;
  records: number;
  seconds: number;
  recordsPerSecond: number;
  /** Peak resident memory of the importing process (for PGlite this includes the database itself). */
  peakRssMb: number;
  /**
   * The whole machine's busy CPU time during the import, every core: the importer's threads, the engine
   * (PGlite's thread, or the PostgreSQL server's processes) and whatever else ran. The benchmark imports
   * alone, so this is the import's cost in CPU; beside `seconds` it tells whether a faster schedule could
   * still reach a rate, or only less work (two cores give 10 CPU-seconds in 5 s). Missing from figures
   * kept by a build before it was measured.
   */
  cpuSeconds?: number;
  /** The machine's cores, whose CPU-seconds in the target's time `cpuSeconds` is weighed against. */
  cores?: number;
}

export interface ImportResult {
  big: ImportFigure;
  towns?: { clients: number; records: number; seconds: number };
}

const task = JSON.parse(process.argv[2] ?? '{}') as ImportTask;

async function open(target: EngineTarget): Promise<Database> {
  const database =
    target.engine === 'pglite'
      ? await openDatabase({ engine: 'pglite', dataDir: target.dataDir })
      : await openDatabase({ engine: 'postgres', url: target.url, poolSize: 4 });
  await migrate(database);
  return database;
}

async function createClient(database: Database, spec: ClientSpec) {
  return clientsRepository.insert(database.db, {
    city: spec.city,
    stateProvince: spec.state,
    country: 'United States',
    description: `Town of ${spec.city}`,
    isActive: true,
    isProduction: true,
    allowsImage: true,
    pictureLevel: 'Per Property',
    allowPaymentLink: true,
    paymentLink: 'pay.example.org/tax?account=',
    parcelCount: 0,
  });
}

async function runImport(database: Database, clientId: number, source: RecordSource, fileName: string) {
  let lastLog = Date.now();
  const outcome = await importRoll(
    database.db,
    { clientId, userId: null, actor: 'benchmark', fileName },
    source,
    (p) => {
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        process.stderr.write(
          `    ${task.target.engine}: ${fileName}: ${p.phase} ${p.processed.toLocaleString('en-US')}\n`,
        );
      }
    },
    { engine: database.engine },
  );
  if (!outcome.ok) throw new Error(`${fileName} was rejected: ${outcome.errors.slice(0, 5).join('; ')}`);
  return outcome.total;
}

/** CPU time every core has spent busy since boot, in seconds (os.cpus(): user, nice, system, irq). */
function machineBusySeconds(): number {
  return os.cpus().reduce((sum, { times: t }) => sum + t.user + t.nice + t.sys + t.irq, 0) / 1000;
}

async function timedImport(database: Database, spec: ClientSpec, jsonl: string): Promise<ImportFigure> {
  const client = await createClient(database, spec);
  const busyBefore = machineBusySeconds();
  const started = performance.now();
  const records = await runImport(database, client.id, jsonlSource(jsonl), `${spec.city}.jsonl`);
  const seconds = (performance.now() - started) / 1000;
  return {
    clientId: client.id,
    records,
    seconds: Math.round(seconds * 100) / 100,
    recordsPerSecond: Math.round(records / seconds),
    peakRssMb: peakRssMb(),
    cpuSeconds: Math.round((machineBusySeconds() - busyBefore) * 10) / 10,
    cores: os.cpus().length,
  };
}

/** The task's figures; null for 'prepare'. */
async function main(): Promise<ImportResult | null> {
  const database = await open(task.target);
  try {
    if (task.kind === 'prepare') return null;
    if (task.kind === 'probe') return { big: await timedImport(database, task.client, task.jsonl) };

    // A resumed build: the run that was cut off is marked failed and its rows removed, as at server start.
    await rollsRepository.sweepAbandoned(database.db, 0);
    // The county-sized roll first, into the empty database: its figures are the import benchmark.
    let big: ImportFigure;
    if (fs.existsSync(task.bigFigureFile)) {
      big = JSON.parse(fs.readFileSync(task.bigFigureFile, 'utf8')) as ImportFigure;
    } else {
      const stale = await clientsRepository.findByStateCity(database.db, task.big.state, task.big.city);
      if (stale) throw new Error('a previous build left the county half-imported; run with --rebuild');
      big = await timedImport(database, task.big, task.bigJsonl);
      fs.writeFileSync(task.bigFigureFile, JSON.stringify(big));
    }
    process.stderr.write(
      `    ${task.target.engine}: 1 client, ${big.records.toLocaleString('en-US')} parcels: ${big.recordsPerSecond.toLocaleString('en-US')} records/s\n`,
    );
    if (task.pauseAfterBig && process.send) {
      const resumed = new Promise((resolve) => process.once('message', resolve));
      process.send('paused');
      await resumed;
    }
    // The rest only fills the database; it yields the CPU to everyone else on the machine.
    os.setPriority(19);
    const started = performance.now();
    let records = 0;
    for (const [i, spec] of task.towns.entries()) {
      const existing = await clientsRepository.findByStateCity(database.db, spec.state, spec.city);
      if (existing?.activeRollId != null && existing.parcelCount === spec.parcels) continue;
      const client = existing ?? (await createClient(database, spec));
      const source: RecordSource = async function* () {
        let line = 0;
        for (const value of clientRecords(task.seed, spec)) yield { line: ++line, value };
      };
      records += await runImport(database, client.id, source, `${spec.city}.jsonl`);
      if ((i + 1) % 25 === 0 || i === task.towns.length - 1)
        process.stderr.write(
          `    ${task.target.engine}: ${i + 1}/${task.towns.length} towns, ${records.toLocaleString('en-US')} parcels\n`,
        );
    }
    return {
      big,
      towns: {
        clients: task.towns.length,
        records,
        seconds: Math.round((performance.now() - started) / 100) / 10,
      },
    };
  } finally {
    await database.close();
  }
}

main().then(
  (result) => {
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`import failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
