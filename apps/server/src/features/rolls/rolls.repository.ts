import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { RollDating } from '@opp/contracts';
import { copyFrom, queryRows, type Executor } from '../../db/database.ts';
import { clients, importRuns, properties } from '../../db/schema.ts';
import { copyPieces, type CopyInput } from '../../db/copy-text.ts';
import { RECORD_COPY_COLUMNS, ROLL_COPY_COLUMNS } from './roll-rows.ts';
import { HISTORY_COPY_COLUMNS } from './value-history.ts';
import type { RunNotes } from './import-notes.ts';

export type ImportRun = typeof importRuns.$inferSelect;

/**
 * A roll is the set of property rows written by one import run (roll_id = import_runs.id). The public
 * only ever reads the client's active roll, so a new roll is written beside the old one and made
 * visible by a single UPDATE: readers see the old roll or the new one, never a mix.
 */
export const rollsRepository = {
  async createRun(
    db: Executor,
    run: {
      clientId: number;
      userId: number | null;
      actor: string;
      fileName: string;
      /** What the roll is read from (a format or a mapping, and the files); by default the one file. */
      origin?: {
        format: string | null;
        mapping: string | null;
        mappingJson: unknown;
        files: string[];
        dating?: RollDating;
      };
      /** The records the confirmed preview counted (progress shows "N of this"); null when unknown. */
      expectedRecords?: number | null;
    },
  ): Promise<ImportRun> {
    const { origin, ...values } = run;
    const [row] = await db
      .insert(importRuns)
      .values({
        ...values,
        sourceFormat: origin?.format ?? null,
        sourceMapping: origin?.mapping ?? null,
        sourceMappingJson: origin?.mappingJson ?? null,
        sourceFiles: origin?.files ?? [run.fileName],
        // What the provider said of the values; a fiscal year given wins over the records' (activate).
        taxYear: origin?.dating?.fiscalYear ?? null,
        valuationDate: origin?.dating?.valuationDate ?? null,
        status: 'validating',
        totalRecords: 0,
        importedRecords: 0,
        errorCount: 0,
        errors: [],
      })
      .returning();
    return row!;
  },

  /** Whether the roll's rows carry the words only owner names give (migrations/0019). */
  async hasOwnerWords(db: Executor, rollId: number): Promise<boolean> {
    const [row] = await db
      .select({ ownerWords: importRuns.ownerWords })
      .from(importRuns)
      .where(eq(importRuns.id, rollId));
    return row?.ownerWords ?? true;
  },

  /**
   * What the roll's values date from: their fiscal (tax) year, as the provider gave it or else the
   * latest its records give (migrations/0017), and the date they are as of (0025), each null if unknown.
   */
  async dating(db: Executor, rollId: number): Promise<RollDating> {
    const [row] = await db
      .select({ fiscalYear: importRuns.taxYear, valuationDate: importRuns.valuationDate })
      .from(importRuns)
      .where(eq(importRuns.id, rollId));
    return { fiscalYear: row?.fiscalYear ?? null, valuationDate: row?.valuationDate ?? null };
  },

  async findRun(db: Executor, id: number): Promise<ImportRun | null> {
    const [row] = await db.select().from(importRuns).where(eq(importRuns.id, id)).limit(1);
    return row ?? null;
  },

  async listRuns(db: Executor, clientId: number, limit = 50): Promise<ImportRun[]> {
    return db
      .select()
      .from(importRuns)
      .where(eq(importRuns.clientId, clientId))
      .orderBy(desc(importRuns.id))
      .limit(limit);
  },

  /** A run in progress for the client (at most one may run at a time). */
  async findRunning(db: Executor, clientId: number): Promise<ImportRun | null> {
    const [row] = await db
      .select()
      .from(importRuns)
      .where(and(eq(importRuns.clientId, clientId), inArray(importRuns.status, ['validating', 'importing'])))
      .limit(1);
    return row ?? null;
  },

  async updateProgress(
    db: Executor,
    id: number,
    patch: Partial<
      Pick<ImportRun, 'status' | 'totalRecords' | 'importedRecords' | 'errorCount' | 'indexing'>
    >,
  ) {
    await db
      .update(importRuns)
      .set({ ...patch, heartbeatAt: sql`now()` })
      .where(eq(importRuns.id, id));
  },

  async fail(db: Executor, id: number, message: string, errors: string[], errorCount: number) {
    await db
      .update(importRuns)
      .set({ status: 'failed', message, errors: errors.slice(0, 100), errorCount, finishedAt: sql`now()` })
      .where(eq(importRuns.id, id));
  },

  /**
   * Creates the empty tables a roll is loaded into (see migrations/0006 and 0009): the columns of
   * `properties` and of `property_records`, no index and no foreign key, so loading costs one heap write
   * per row. Their check constraints let attaching them skip the scan that proves every row belongs to
   * the roll. Tables left by an earlier attempt under the same id are replaced. Beside them, the lines
   * the roll adds to its town's valuation history (`value_history`'s columns but the town, migrations/0022;
   * a null year is the roll's own), moved into it when the roll is published (activate).
   */
  async createRollTable(db: Executor, rollId: number) {
    const table = rollTable(rollId);
    const records = recordsTable(rollId);
    const history = historyTable(rollId);
    await db.execute(sql.raw(`drop table if exists ${table}, ${records}, ${history}`));
    await db.execute(
      sql.raw(`create table ${history} as select ${HISTORY_COPY_COLUMNS} from value_history with no data`),
    );
    await db.execute(
      sql.raw(`create table ${table} (like properties including defaults including storage,
                 constraint ${table}_roll check (roll_id = ${rollId}))`),
    );
    await db.execute(
      sql.raw(`create table ${records} (like property_records including storage,
                 constraint ${records}_roll check (roll_id = ${rollId}))`),
    );
    // No planner statistics for what no query filters or sorts on: ANALYZE would read a sample of
    // 30,000 summaries for a width estimate nobody uses. Nor for the codes: searches read them through
    // unnest() in a subquery, which the planner estimates without them (their element statistics were
    // a quarter of ANALYZE's time on PostgreSQL).
    await db.execute(
      sql.raw(
        `alter table ${table} alter column summary set statistics 0, alter column codes set statistics 0`,
      ),
    );
  },

  /**
   * Writes rows into the roll's tables with COPY, the cheapest way into PostgreSQL on both engines (no
   * statement to plan, no parameters, no JSON to unpack). `data` is COPY text from roll-rows.ts
   * (`rows`: copyRow, `records`: copyRecordRow): every column arrives as the value it will hold; the word
   * vector is written as a tsvector literal rather than computed by to_tsvector, whose parser yields
   * these words unchanged (they are ASCII letters and digits, see search-text.ts) at several times the
   * cost, except words it reads as numbers: PostgreSQL's parser reads digits, "e", digits as one number
   * ('0e0a' is '0e0' and 'a'), and its to_tsquery will look for those pieces, so such rare rows
   * (`numberLike`, by account) get the engine's own word vector. `history`: the lines the records add to
   * the town's valuation history (value-history.ts copyHistoryRows).
   */
  async copyRows(
    db: Executor,
    rollId: number,
    data: { rows: CopyInput; records: CopyInput; history: CopyInput },
    numberLike: readonly string[] = [],
  ) {
    const empty = (data: CopyInput) => copyPieces(data).every((piece) => piece.length === 0);
    if (empty(data.rows)) return;
    await copyFrom(db, `${rollTable(rollId)} (${ROLL_COPY_COLUMNS})`, data.rows);
    await copyFrom(db, `${recordsTable(rollId)} (${RECORD_COPY_COLUMNS})`, data.records);
    if (!empty(data.history))
      await copyFrom(db, `${historyTable(rollId)} (${HISTORY_COPY_COLUMNS})`, data.history);
    if (numberLike.length)
      await db.execute(sql`
        update ${sql.raw(rollTable(rollId))}
           set search_doc = to_tsvector('simple', array_to_string(tsvector_to_array(search_doc), ' '))
         where account = any(array(select jsonb_array_elements_text(${JSON.stringify(numberLike)}::jsonb)))`);
  },

  /**
   * Makes a loaded roll queryable under `properties` and `property_records` (still unpublished: no
   * client points at it). Builds
   * the indexes `properties` declares (whatever the migrations say they are) on the roll's table, one
   * sorted pass each instead of a row-by-row update of every index, gathers its planner statistics, and
   * attaches it; attaching adopts the indexes and only checks the foreign keys. The builds run on up to
   * `parallel` connections (a PostgreSQL server builds two at once on two cores; PGlite runs them in turn),
   * one build a connection with no parallel workers of its own: the builds already share the cores, and
   * workers beside the word index only slowed it (a 100,000-row roll's index phase 1.95–2.15 s with
   * PostgreSQL's default two workers a build, 1.65–1.85 s without, on two cores).
   * `sortMemory` caps each build's memory (`maintenance_work_mem`) for the session: only for PGlite, whose
   * one session is the whole database and whose WebAssembly memory never shrinks once grown.
   */
  async attachRollTable(
    db: Executor,
    rollId: number,
    options: { parallel?: number; sortMemory?: string } = {},
  ) {
    const { parallel = 1, sortMemory } = options;
    const table = rollTable(rollId);
    const indexes = await queryRows<{ name: string; def: string; constraint_def: string | null }>(
      db,
      sql`select i.relname as name, pg_get_indexdef(x.indexrelid) as def,
                 pg_get_constraintdef(c.oid) as constraint_def
            from pg_index x
            join pg_class i on i.oid = x.indexrelid
            left join pg_constraint c on c.conindid = x.indexrelid and c.conrelid = x.indrelid
           where x.indrelid = 'properties'::regclass
           order by i.relname`,
    );
    // Each index as the parent declares it, built on the roll's table. A primary key is built as a unique
    // index, which other builds can run beside (adding the constraint directly locks the table against
    // them), and becomes the constraint afterwards, or attaching would build a second index.
    const keys: string[] = [];
    const builds = indexes.map(({ name, def, constraint_def }) => {
      const own = `${table}_${name.replace(/^properties_/, '')}`;
      if (constraint_def)
        keys.push(
          `alter table ${table} add constraint ${own} ${constraint_def.startsWith('PRIMARY KEY') ? 'primary key' : 'unique'} using index ${own}`,
        );
      const on = / ON ONLY (\S+) USING /.exec(def);
      if (!on) throw new Error(`unexpected index definition: ${def}`);
      return def
        .replace(
          /^CREATE (UNIQUE )?INDEX \S+ /,
          (_m, unique: string | undefined) => `CREATE ${unique ?? ''}INDEX ${own} `,
        )
        .replace(on[0], ` ON ${table} USING `);
    });
    // The word index (GIN) first: the longest build by far (13–14 s for a 1,000,000-row roll on
    // PostgreSQL, nearly as long as all the sort B-trees together: 16 s since migrations/0011), so on
    // two connections everything else builds beside it; started last, it ran alone at the end. The
    // records table has only its primary key (migrations/0009).
    const records = recordsTable(rollId);
    const gin = (s: string) => / USING gin /i.test(s);
    const queue = [
      ...builds.filter(gin),
      `alter table ${records} add constraint ${records}_pkey primary key (roll_id, account)`,
      ...builds.filter((s) => !gin(s)),
    ];
    if (sortMemory) await db.execute(sql`select set_config('maintenance_work_mem', ${sortMemory}, false)`);
    try {
      await Promise.all(
        Array.from({ length: Math.max(1, parallel) }, async () => {
          try {
            for (let next = queue.shift(); next; next = queue.shift()) await buildAlone(db, next);
          } catch (err) {
            // The other connection stops after its current build: the import fails and drops the tables.
            queue.length = 0;
            throw err;
          }
        }),
      );
      for (const key of keys) await db.execute(sql.raw(key));
    } finally {
      if (sortMemory) await db.execute(sql`reset maintenance_work_mem`);
    }
    await db.execute(sql.raw(`analyze ${table}`));
    await db.execute(sql.raw(`alter table properties attach partition ${table} for values in (${rollId})`));
    await db.execute(
      sql.raw(`alter table property_records attach partition ${records} for values in (${rollId})`),
    );
  },

  /** The client's published roll, or null. */
  async activeRollId(db: Executor, clientId: number): Promise<number | null> {
    const [row] = await db
      .select({ activeRollId: clients.activeRollId })
      .from(clients)
      .where(eq(clients.id, clientId));
    return row?.activeRollId ?? null;
  },

  /**
   * The client's published records (stored form), a page at a time in account order, for a dry run's
   * comparison with what it would replace. Nothing when the client has no roll.
   */
  async *publishedRecords(db: Executor, clientId: number, page = 5000): AsyncGenerator<string[]> {
    let after = '';
    for (;;) {
      const rows = await queryRows<{ account: string; record: string }>(
        db,
        sql`select r.account, r.record from property_records r
              join clients c on c.active_roll_id = r.roll_id
             where c.id = ${clientId} and r.account > ${after}
             order by r.account limit ${page}`,
      );
      if (rows.length === 0) return;
      yield rows.map((r) => r.record);
      after = rows[rows.length - 1]!.account;
      if (rows.length < page) return;
    }
  },

  /**
   * Sets the visibility map of a published roll's table (index-only counts) without blocking readers.
   * Not inside a transaction; on PostgreSQL only: PGlite would run it on the server's one thread.
   */
  async vacuumRoll(db: Executor, rollId: number) {
    await db.execute(sql.raw(`vacuum ${rollTable(rollId)}`));
  },

  /**
   * Makes the roll the client's published one, records the run as succeeded and files the roll's lines
   * in the town's valuation history, in one transaction. Returns the previous roll id, whose rows the
   * caller deletes afterwards (outside the swap).
   *
   * History (migrations/0022): each record's own values go under the roll's year (`history_year`: its tax
   * year, else the year it is published), replacing
   * what a roll of the same year published before (a corrected roll is not history), unlisted; then the
   * years its file's own ValueHistory gives replace the town's lines of those years, listed. Two
   * statements over the roll's history table, one line per key in each (the importer keeps one line per
   * year of a record, and an account once per roll).
   */
  async activate(
    db: Executor,
    clientId: number,
    rollId: number,
    count: number,
    roll: {
      /** The roll this one was prepared to replace: refused if another is (published meanwhile). */
      replacing?: number | null;
      /** The roll's tax year (migrations/0017). */
      taxYear?: number | null;
      /** What the run said besides its errors (migrations/0024). */
      notes?: RunNotes | null;
    } = {},
  ): Promise<number | null> {
    const { replacing, taxYear = null, notes = null } = roll;
    return db.transaction(async (tx) => {
      const [before] = await tx
        .select({ activeRollId: clients.activeRollId })
        .from(clients)
        .where(eq(clients.id, clientId))
        .for('update');
      if (replacing !== undefined && (before?.activeRollId ?? null) !== replacing)
        throw new Error('the published roll changed during the import');
      await tx
        .update(clients)
        .set({ activeRollId: rollId, parcelCount: count, lastUpdated: sql`now()` })
        .where(eq(clients.id, clientId));
      await tx
        .update(importRuns)
        .set({
          status: 'succeeded',
          taxYear,
          notes,
          historyYear: taxYear ?? sql`extract(year from now())::int`,
          totalRecords: count,
          importedRecords: count,
          finishedAt: sql`now()`,
          heartbeatAt: sql`now()`,
        })
        .where(eq(importRuns.id, rollId));
      const history = sql.raw(historyTable(rollId));
      const upsert = sql`on conflict (client_id, account, year) do update
                           set land_value = excluded.land_value, building_value = excluded.building_value,
                               total_value = excluded.total_value, listed = excluded.listed`;
      await tx.execute(sql`
        insert into value_history (client_id, account, year, land_value, building_value, total_value, listed)
        select ${clientId}::int, h.account, (${rollYear(rollId)}), h.land_value, h.building_value, h.total_value,
               false
          from ${history} h
         where h.year is null
        ${upsert}`);
      await tx.execute(sql`
        insert into value_history (client_id, account, year, land_value, building_value, total_value, listed)
        select ${clientId}::int, h.account, h.year, h.land_value, h.building_value, h.total_value, true
          from ${history} h
         where h.year is not null
        ${upsert}`);
      await tx.execute(sql`drop table ${history}`);
      return before?.activeRollId ?? null;
    });
  },

  /**
   * Removes a roll's rows: its own tables (a DROP, whatever their size), or for a roll written before
   * migration 0006 its rows in the legacy partition.
   */
  async deleteRoll(db: Executor, rollId: number) {
    // One statement, so no reader ever sees a roll with its rows gone and its records still there.
    await db.execute(
      sql.raw(`drop table if exists ${rollTable(rollId)}, ${recordsTable(rollId)}, ${historyTable(rollId)}`),
    );
    await db.delete(properties).where(eq(properties.rollId, rollId));
  },

  /**
   * Rows of rolls that are neither published nor being written: left by a crash, a failed import, or a
   * replaced roll whose deletion did not finish. A run whose heartbeat stopped more than `staleSeconds`
   * ago is marked failed first. A roll replaced less than `keepReplacedMs` ago is kept (see
   * dropAbandonedRolls). Returns how many rolls were removed.
   */
  async sweepAbandoned(db: Executor, staleSeconds: number, keepReplacedMs = 0): Promise<number> {
    await db.execute(sql`
      update import_runs set status = 'failed', message = 'Interrupted (the server stopped during the import)',
             finished_at = now()
       where status in ('validating', 'importing')
         and heartbeat_at < now() - make_interval(secs => ${staleSeconds})`);
    return this.dropAbandonedRolls(db, keepReplacedMs);
  },

  /**
   * The removal half of sweepAbandoned: never touches a run still in progress or a published roll, nor
   * a roll replaced by a publish less than `keepReplacedMs` ago: it is within its grace period
   * (import.service.ts `retireAfterMs`), readers may still ask for it.
   */
  async dropAbandonedRolls(db: Executor, keepReplacedMs = 0): Promise<number> {
    const rows = await queryRows<{ roll_id: number }>(
      db,
      sql`with rolls as (${await rollsWithRows(db)})
          select roll_id from rolls x
           where not exists (select 1 from import_runs r
                              where r.id = x.roll_id and r.status in ('validating', 'importing'))
             and not exists (select 1 from clients c where c.active_roll_id = x.roll_id)
             and not exists (select 1 from import_runs r join clients c on c.id = r.client_id
                              where r.id = x.roll_id and r.status = 'succeeded'
                                and c.last_updated > now() - make_interval(secs => ${keepReplacedMs / 1000}))`,
    );
    for (const r of rows) await this.deleteRoll(db, r.roll_id);
    return rows.length;
  },

  /**
   * Removes every roll of a client and its valuation history (before the client itself is deleted, in
   * the same transaction: no foreign key takes a roll's rows or the history with its client, migrations
   * 0012 and 0022). Returns how many parcels the rolls held. A roll's tables go whole, whatever their size, but dropping them locks `properties`
   * until the transaction ends: the caller ends it promptly.
   */
  async deleteClientRolls(db: Executor, clientId: number): Promise<number> {
    const rolls = await queryRows<{ roll_id: number }>(
      db,
      sql`with rolls as (${await rollsWithRows(db)})
          select x.roll_id from rolls x join import_runs r on r.id = x.roll_id
           where r.client_id = ${clientId}
           order by x.roll_id`,
    );
    let parcels = 0;
    for (const { roll_id } of rolls) {
      // One roll at a time, so the planner reads only that roll's table.
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from properties where roll_id = ${roll_id}`,
      );
      parcels += row?.n ?? 0;
      await this.deleteRoll(db, roll_id);
    }
    await db.execute(sql`delete from value_history where client_id = ${clientId}`);
    return parcels;
  },
};

/**
 * The rolls that have rows, as a query of `roll_id`s: their own tables (0006), found by name, and
 * rolls written before 0006, in the legacy partition where it exists (it is probed by name, never
 * through `properties`: a probe there cannot prune by the run and reads every roll's table; measured:
 * 170 ms at 60 towns, seconds at 300).
 */
async function rollsWithRows(db: Executor) {
  const [legacy] = await queryRows<{ present: boolean }>(
    db,
    sql`select to_regclass('properties_legacy') is not null as present`,
  );
  const legacyRolls = legacy?.present
    ? sql`union
          select r.id from import_runs r
           where r.status in ('failed', 'succeeded')
             and exists (select 1 from properties_legacy p where p.roll_id = r.id)`
    : sql``;
  // Distinct: a roll has several tables.
  return sql`select distinct substring(c.relname from ${ROLL_TABLE_PATTERN})::int as roll_id
               from pg_class c
              where c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace
                and c.relname ~ ${ROLL_TABLE_PATTERN}
             ${legacyRolls}`;
}

const ROLL_TABLE_PATTERN = '^(?:properties|property_records|value_history)_r([0-9]+)$';

const checkRollId = (rollId: number) => {
  if (!Number.isSafeInteger(rollId) || rollId <= 0) throw new Error(`not a roll id: ${rollId}`);
};

/** The table holding one roll's rows (migrations/0006). Roll ids are integers from import_runs. */
export function rollTable(rollId: number): string {
  checkRollId(rollId);
  return `properties_r${rollId}`;
}

/** The table holding one roll's packed records (migrations/0009). */
export function recordsTable(rollId: number): string {
  checkRollId(rollId);
  return `property_records_r${rollId}`;
}

/** The lines a roll adds to its town's valuation history until it is published (createRollTable). */
function historyTable(rollId: number): string {
  checkRollId(rollId);
  return `value_history_r${rollId}`;
}

/** The year a published roll's values are filed under in the valuation history (activate). */
function rollYear(rollId: number) {
  return sql`select history_year from import_runs where id = ${rollId}`;
}

/** Runs an index build (or a key's) in a transaction of its own, without parallel workers (attachRollTable). */
async function buildAlone(db: Executor, statement: string) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('max_parallel_maintenance_workers', '0', true)`);
    await tx.execute(sql.raw(statement));
  });
}
