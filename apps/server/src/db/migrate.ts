import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { SERVER_ROOT } from '../paths.ts';
import { WORD_FORMS_MIGRATION, wordFormsMigrationScript } from '../features/search/word-forms.migration.ts';
import { queryRows, type Database } from './database.ts';

const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'migrations');

/**
 * Migrations whose SQL is written from data the code owns (one definition, not a copy in a .sql file),
 * run in name order among the files.
 */
const GENERATED: Record<string, () => string> = {
  [WORD_FORMS_MIGRATION]: wordFormsMigrationScript,
};

export interface MigrationResult {
  applied: string[];
}

/**
 * Applies every migration file not yet applied, in name order, each in its own transaction.
 * An advisory lock keeps two API nodes starting together from applying the same file twice.
 */
export async function migrate(database: Database): Promise<MigrationResult> {
  const versions = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .map((f) => f.replace(/\.sql$/, ''))
    .concat(Object.keys(GENERATED))
    .sort();
  await database.execScript(`
    create table if not exists schema_migrations (
      version text primary key,
      applied_at timestamptz not null default now()
    );`);
  const applied: string[] = [];
  for (const version of versions) {
    const file = GENERATED[version] ? `${version} (generated)` : `${version}.sql`;
    const done = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from schema_migrations where version = ${version}`,
    );
    if ((done[0]?.n ?? 0) > 0) continue;
    const body = GENERATED[version]?.() ?? fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
    try {
      await database.execScriptInTransaction(`
        select pg_advisory_xact_lock(8086001);
        do $$ begin
          if exists (select 1 from schema_migrations where version = '${version}') then
            raise exception 'already-applied';
          end if;
        end $$;
        ${body}
        ;
        insert into schema_migrations (version) values ('${version}');`);
      applied.push(version);
    } catch (err) {
      if (String((err as Error).message).includes('already-applied')) continue;
      throw new Error(`Migration ${file} failed: ${(err as Error).message}`);
    }
  }
  return { applied };
}
