#!/usr/bin/env node
// Runs a command with TEST_DATABASE_URL pointing at the local PostgreSQL server (default
// postgres://postgres@127.0.0.1:5432/postgres). Test files create and drop their own databases there.
// Fails loudly when the server is unreachable: the PostgreSQL run must never be skipped silently.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const url = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
try {
  await client.connect();
  await client.query('select 1');
} catch (err) {
  console.error(`PostgreSQL is not reachable at ${url}: ${err.message}`);
  console.error('Start it (pg_ctlcluster <version> main start) or set TEST_DATABASE_URL.');
  process.exit(1);
} finally {
  await client.end().catch(() => {});
}
const [cmd, ...args] = process.argv.slice(2);
const result = spawnSync(cmd, args, {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url },
  shell: false,
});
process.exit(result.status ?? 1);
