import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PropertyRecord } from '@opp/contracts';
import { queryRows, type Db } from '../src/db/database.ts';
import { importRoll, type ImportOptions, type ImportOutcome } from '../src/features/rolls/import.service.ts';
import { openMappedSource, type MappedInput } from '../src/features/rolls/mapping/mapped-source.ts';
import { loadMappingFile } from '../src/features/rolls/mapping/mapping-file.ts';
import { propertiesRepository } from '../src/features/properties/properties.repository.ts';
import { rollImportService, type RollReading } from '../src/features/rolls/roll-import.service.ts';
import { testEngine } from './helpers.ts';

/*
 * The real public exports in ../shared/data/realworld (outside the repository, see its README), read
 * through the example mappings in docs/examples exactly as `portal import --mapping` reads them. Tests
 * that use them skip, with a message, when the data is not there.
 */

const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const realworldDir = path.resolve(repoRoot, '../shared/data/realworld');

export const EXAMPLES = {
  'lyme-nh': { folder: 'lyme-nh', files: null },
  'cambridge-fy2014': { folder: 'cambridge-ma', files: ['cambridge_taxfy14.csv'] },
  'cambridge-fy2025': { folder: 'cambridge-ma', files: ['cambridge_property_database_fy2025_1000rows.csv'] },
  'lebanon-nhdra': { folder: 'lebanon-nh', files: ['nhdra.csv'] },
} as const;
export type ExampleName = keyof typeof EXAMPLES;

/** The source files of an example (Lyme: every file of its folder), or null when the data is absent. */
export function exampleFiles(name: ExampleName): string[] | null {
  const { folder, files } = EXAMPLES[name];
  const dir = path.join(realworldDir, folder);
  if (!fs.existsSync(dir)) return null;
  const list = files ?? fs.readdirSync(dir).filter((f) => /\.(csv|tsv)$/.test(f));
  const paths = list.map((f) => path.join(dir, f));
  return paths.every((p) => fs.existsSync(p)) ? paths : null;
}

export function haveExample(name: ExampleName, suite: string): boolean {
  const ok = exampleFiles(name) !== null;
  if (!ok) console.warn(`${suite} skipped: the real data in ${realworldDir} is not there.`);
  return ok;
}

export async function openExample(name: ExampleName): Promise<MappedInput> {
  const mapping = loadMappingFile(path.join(repoRoot, 'docs/examples', `${name}.json`));
  return openMappedSource(
    mapping,
    exampleFiles(name)!.map((p) => ({ path: p })),
  );
}

/**
 * Publishes files read through a built-in format or a mapping file, as `portal import` does (with its
 * run, its audit entry and the refusal of a file whose needed fields are all empty).
 */
export async function importFiles(
  db: Db,
  clientId: number,
  reading: RollReading,
  files: string[],
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const input = await rollImportService.open(
    reading,
    files.map((p) => ({ path: p, name: path.basename(p) })),
  );
  const run = await rollImportService.createRun(db, { clientId, userId: null, actor: 'test' }, input, {
    actor: null,
    ip: null,
  });
  return rollImportService.publish(db, run, input.source(), () => {}, {
    engine: testEngine,
    checks: input,
    ...options,
  });
}

/** Publishes an example through the real import service, as the command line does. */
export async function importExample(
  db: Db,
  clientId: number,
  name: ExampleName,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const input = await openExample(name);
  return importRoll(
    db,
    {
      clientId,
      userId: null,
      actor: 'test',
      fileName: `${input.fileNames.join(', ')} (mapping ${name}.json)`,
    },
    input.source,
    () => {},
    { engine: testEngine, ...options },
  );
}

/** The client's published records, by account, as the record answer gives them. */
export async function storedRecords(db: Db, clientId: number): Promise<Map<string, PropertyRecord>> {
  const [client] = await queryRows<{ roll: number | null }>(
    db,
    sql`select active_roll_id as roll from clients where id = ${clientId}`,
  );
  if (!client?.roll) return new Map();
  const records = await propertiesRepository.findRecords(db, { clientId, rollId: client.roll });
  return new Map(records.map((r) => [r.Account as string, r as PropertyRecord]));
}
