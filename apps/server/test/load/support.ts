import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { PropertyRecordInput } from '@opp/contracts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { RecordSource } from '../../src/features/rolls/import.service.ts';

/*
 * Helpers for the fault and load runs (npm run test:load): real server processes, real signals, rolls of
 * 100,000 generated parcels, on the embedded database (a data folder) or a PostgreSQL database.
 */

export const ROOT = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
/** Node with tsx as a loader, in one process: a signal reaches the program itself, not a wrapper. */
export const NODE_TS = [process.execPath, '--import', 'tsx'] as const;

export const engine: 'pglite' | 'postgres' = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

/** Where a portal keeps its data for one test: a fresh folder, or a fresh database on the server. */
export interface Store {
  env: Record<string, string>;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export async function freshStore(): Promise<Store> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-load-'));
    return {
      env: { DATA_DIR: dir },
      open: async () => {
        const d = await openDatabase({ engine: 'pglite', dataDir: dir });
        await migrate(d);
        return d;
      },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `opp_load_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    open: async () => {
      const d = await openDatabase({ engine: 'postgres', url: url.toString(), poolSize: 4 });
      await migrate(d);
      return d;
    },
    drop: async () => {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

const STREETS = ['Main St', 'Elm St', 'Oak Ave', 'Pine Rd', 'Maple Dr', 'Cedar Ln', 'Birch Way', 'Lake Rd'];
const SURNAMES = [
  'SMITH',
  'JOHNSON',
  'BROWN',
  'DAVIS',
  'MILLER',
  'WILSON',
  'MOORE',
  'TAYLOR',
  'CLARK',
  'HALL',
];

/**
 * One parcel of a generated roll. `gen` marks the roll it belongs to in every searchable field (owner
 * surname suffix, map/lot prefix), so any answer shows which roll it came from.
 */
export function makeRecord(i: number, gen: 'A' | 'B'): PropertyRecordInput {
  const surname = `${SURNAMES[i % SURNAMES.length]}${gen}`;
  return {
    Account: String(i),
    MapLot: `${gen}${String(Math.floor(i / 100)).padStart(3, '0')}-${String(i % 100).padStart(3, '0')}`,
    StreetNumber: String((i % 400) + 1),
    StreetName: STREETS[i % STREETS.length],
    Owners: [
      {
        OwnerName: `${surname}, OWNER ${i}`,
        Address1: `${i} Post Rd`,
        City: 'Loadville',
        State: 'ME',
        ZipCode: '04000',
      },
    ],
    LandValue: 20_000 + (i % 50) * 1000,
    TotalBuildingValue: 80_000 + (i % 70) * 1500,
    TotalAcres: ((i % 40) + 1) / 4,
    Sales: [
      {
        SaleDate: `20${String(10 + (i % 14)).padStart(2, '0')}-0${(i % 9) + 1}-15`,
        SalePrice: 100_000 + (i % 90) * 2000,
      },
    ],
    Land: [{ LandDescription: i % 3 ? 'Residential' : 'Woodland', Amount: 1 }],
    Buildings: [
      {
        BuildingType: i % 2 ? 'Colonial' : 'Ranch',
        Area: 1200 + (i % 30) * 20,
        Bedrooms: (i % 4) + 1,
        FullBaths: (i % 2) + 1,
      },
    ],
  };
}

export function recordSource(count: number, gen: 'A' | 'B'): RecordSource {
  return async function* () {
    for (let i = 1; i <= count; i++) yield { line: i, value: makeRecord(i, gen) };
  };
}

/** Writes a generated roll as JSON Lines (streamed: 100,000 records never sit in memory). */
export async function writeRollFile(file: string, count: number, gen: 'A' | 'B'): Promise<void> {
  const out = fs.createWriteStream(file);
  for (let i = 1; i <= count; i++) {
    if (!out.write(`${JSON.stringify(makeRecord(i, gen))}\n`))
      await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

/**
 * A generated roll file, written once and shared by every load test and both engines' runs (they may
 * run side by side): the name holds a hash of the generator, so a changed generator writes a new file.
 * Written under a temporary name and renamed, so a reader never sees half a file.
 */
export async function sharedRollFile(count: number, gen: 'A' | 'B'): Promise<string> {
  const version = createHash('sha256')
    .update(`${makeRecord.toString()}${STREETS.join()}${SURNAMES.join()}`)
    .digest('hex')
    .slice(0, 12);
  const file = path.join(os.tmpdir(), `opp-load-roll-${gen}-${count}-${version}.jsonl`);
  if (fs.existsSync(file)) return file;
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeRollFile(partial, count, gen);
  fs.renameSync(partial, file);
  return file;
}

export interface PortalProcess {
  proc: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs the portal's entry point (src/main.ts, the sources) with this environment. `viaCommand` runs the
 * `portal` command itself (bin/portal: the build, `npm run build` first), in a process group of its own
 * (as a terminal would: the group's id is the command's pid).
 */
export function spawnPortal(
  args: string[],
  env: Record<string, string>,
  options: { viaCommand?: boolean } = {},
): ChildProcess {
  const [command, argv] = options.viaCommand
    ? [path.join(ROOT, 'apps/server/bin/portal'), args]
    : [process.execPath, [...NODE_TS.slice(1), MAIN, ...args]];
  return spawn(command, argv, {
    cwd: ROOT,
    detached: options.viaCommand ?? false,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORTAL_DEMO: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: '',
      HOST: '127.0.0.1',
      PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** `portal serve` in a child process; resolves once it prints the URL it listens on. */
export async function startPortalProcess(
  env: Record<string, string>,
  timeoutMs = 120_000,
  options: { viaCommand?: boolean } = {},
): Promise<PortalProcess> {
  const proc = spawnPortal(['serve'], env, options);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`portal did not start:\n${out}`)), timeoutMs);
    const check = () => {
      const m = /running at (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', check);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`portal exited (${code}) before listening:\n${out}`));
    });
  });
  return {
    proc,
    url,
    output: () => out,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      // The command's server too, wherever the command went (a SIGKILL is not passed on).
      if (options.viaCommand) {
        try {
          process.kill(-proc.pid!, signal);
        } catch {
          // The group is gone.
        }
      }
      return exited;
    },
  };
}

/** Runs a `portal` command to its end; answers its exit code and output. */
export async function runPortal(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 600_000,
): Promise<{ code: number | null; out: string; ms: number }> {
  const started = Date.now();
  const proc = spawnPortal(args, env);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, out, ms: Date.now() - started };
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
