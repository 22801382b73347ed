import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty embedded database (a snapshot file), or null on the PostgreSQL run. */
    migratedPglite: string | null;
  }
}

/*
 * Every API test file opens a fresh embedded database. Creating one runs initdb in WebAssembly
 * (about 1.3 s of CPU, plus the migrations); a copy of one made and migrated here, once per run,
 * opens in about half of that. The migrations themselves are still run by each file (they find
 * nothing left to apply), so a file never starts from a schema they would not produce.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('migratedPglite', null);
    return;
  }
  const database = await openDatabase({ engine: 'pglite', dataDir: null, worker: false });
  await migrate(database);
  const snapshot = await database.snapshot!();
  await database.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-test-db-'));
  const file = path.join(dir, 'migrated.tar.gz');
  fs.writeFileSync(file, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('migratedPglite', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
