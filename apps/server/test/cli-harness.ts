import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { runCli } from '../src/cli/cli.ts';
import type { CliIo } from '../src/cli/io.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { createTestDatabase, startFromMigrated, type TestDatabase } from './helpers.ts';

/*
 * The `portal` command run in-process, as a person runs it: arguments in, exit code and printed lines
 * out, state in the configured database. Embedded runs use a temporary DATA_DIR; PostgreSQL runs (with
 * TEST_DATABASE_URL) a fresh database through DATABASE_URL. Call once at a test file's top level.
 */

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliHarness {
  /** The file's temporary folder (the embedded database lives in `dataDir` inside it). */
  readonly dir: string;
  readonly dataDir: string;
  /** The PostgreSQL test database, or null on the embedded engine. */
  readonly pg: TestDatabase | null;
  /** The command's environment; a test may swap it and put it back. */
  env: NodeJS.ProcessEnv;
  portal(args: string[], stdin?: string): Promise<CliRun>;
  /** The configured database, opened after the command closed it (the embedded one is locked meanwhile). */
  withDb<T>(work: (database: Database) => Promise<T>): Promise<T>;
  /** Writes a file into `dir` (text as it is, anything else as JSON) and answers its path. */
  file(name: string, content: unknown): string;
}

export function cliHarness(prefix: string): CliHarness {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `opp-${prefix}-`));
  const harness: CliHarness = {
    dir,
    dataDir: path.join(dir, 'data'),
    pg: null,
    env: {},
    async portal(args, stdin = '') {
      const out = new PassThrough();
      const err = new PassThrough();
      let stdout = '';
      let stderr = '';
      out.on('data', (c: Buffer) => (stdout += c.toString()));
      err.on('data', (c: Buffer) => (stderr += c.toString()));
      const io: CliIo = { env: harness.env, stdin: Readable.from([stdin]), stdout: out, stderr: err };
      const code = await runCli(args, io);
      return { code, stdout, stderr };
    },
    async withDb(work) {
      if (harness.pg) return work(harness.pg.database);
      const database = await openDatabase({ engine: 'pglite', dataDir: harness.dataDir, worker: false });
      try {
        return await work(database);
      } finally {
        await database.close();
      }
    },
    file(name, content) {
      const p = path.join(dir, name);
      fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
      return p;
    },
  };
  beforeAll(async () => {
    const pg = process.env.TEST_DATABASE_URL ? await createTestDatabase() : null;
    if (!pg) await startFromMigrated(harness.dataDir);
    Object.assign(harness, { pg });
    harness.env = {
      DATA_DIR: harness.dataDir,
      LOG_LEVEL: 'silent',
      PORTAL_DEMO: '0',
      WEB_DIST: '',
      // No reader can be using a replaced roll here: drop it at once (on PostgreSQL the default waits).
      ROLL_RETIRE_SECONDS: '0',
      ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
    };
  }, 60_000);
  afterAll(async () => {
    await harness.pg?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return harness;
}
