import fs from 'node:fs';
import path from 'node:path';
import { parse, type InfoRecord, type Options as CsvOptions } from 'csv-parse';
import type { RecordSource } from '../import.service.ts';
import { embeddedLineBreaks } from '../record-sources.ts';
import { readDbf } from './dbf-table.ts';
import type { AdjustKind, ValueNote } from '../import-notes.ts';
import type { SourceRecord } from '../roll-rows.ts';
import {
  MappingError,
  TEXT_TRANSFORMS,
  type CodeTable,
  type Condition,
  type FileSpec,
  type ItemSource,
  type ListSpec,
  type Mapping,
  type ValueObject,
  type ValueSpec,
  safePattern,
} from './mapping-file.ts';
import { RECORD_FIELDS, type Kind } from './record-fields.ts';
import {
  accountText,
  areaUnit,
  cleanCell,
  convertArea,
  mapLot,
  parseNumber,
  perThousand,
  restoreZip,
  splitBookPage,
  splitStreetAddress,
  taxAmount,
  toDate,
  toFlag,
  toFraction,
  toInteger,
  toStories,
  toNumber,
  type AreaUnit,
  type Outcome,
  type Value,
} from './transforms.ts';

/*
 * The mapping engine: reads a town's export (one or more CSV/TSV files), joins its files on the key
 * column, groups the rows of one key into one property (its owners, sales, buildings from the rows),
 * and hands each property to the import as a §3 record, exactly as a JSON Lines line would be. Every
 * value keeps where it came from, so a problem names the line, the portal field and the source column.
 *
 * The files are read whole before the first record (a join needs them all); a town's export is tens of
 * megabytes at most. The records themselves are made one at a time as the import asks for them.
 */

export interface InputFile {
  path: string;
  /** The name the person gave the file (an upload is stored under a temporary path). */
  name?: string;
}

export interface MappedInput {
  source: RecordSource;
  /** The files read, in the order given. */
  fileNames: string[];
  /** Columns of each file that no part of the mapping reads: the first UNUSED_SHOWN of them, and how many. */
  unusedColumns: Array<{ file: string; columns: string[]; count: number }>;
  /** Files whose header row is not their first line (a junk line above it), and the line it is on. */
  headerLines: Array<{ file: string; line: number }>;
  /** Optional columns the mapping reads that no file has: `REM_PRCL_LOCN_APT (Apartment)`. */
  absentColumns: string[];
}

/** Unused columns named in a report; a file of a million columns is counted, not echoed. */
export const UNUSED_SHOWN = 50;

export interface MappedOptions {
  onRead?: (bytesRead: number) => void;
}

interface Table {
  spec: FileSpec;
  fileName: string;
  headers: string[];
  /** The line the header row is on (0: the file has none). */
  headerLine: number;
  /** Each header's columnKey, to its first column. */
  columnKeys: Map<string, number>;
  rows: string[][];
  lines: number[];
  /** The columns whose cells, together, are a row's key (several for a key of several columns). */
  keyCols: number[];
  byKey: Map<string, number[]> | null;
  used: Set<number>;
}

interface Ref {
  table: Table;
  col: number;
  name: string;
  /** Read from the row being listed (a rows source) rather than the property's row of its file. */
  rowLevel: boolean;
}

interface Ctx {
  /** Where the values a mapping leaves out or changes are noted, for the record being made. */
  notes?: ValueNote[];
  key: string;
  primaryRows: number[];
  row: { table: Table; index: number } | null;
}

interface Compiled {
  evaluate: (ctx: Ctx) => Outcome | null;
  refs: Ref[];
  what: string;
}

// ─── reading ────────────────────────────────────────────────────────────────────────────────────────

function detectDelimiter(file: string, fileName: string): string {
  const ext = path.extname(fileName).toLowerCase();
  if (ext === '.tsv' || ext === '.tab') return '\t';
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    // Of the first lines, the one with the most cells (a junk line above the header may have none).
    const lines = buf.toString('utf8', 0, n).split(/\r?\n/).slice(0, HEADER_SEARCH_ROWS);
    let best: [string, number] = [',', 0];
    for (const d of [',', '\t', ';', '|'])
      for (const line of lines) {
        const cells = line.split(d).length;
        if (cells > best[1]) best = [d, cells];
      }
    return best[0];
  } finally {
    fs.closeSync(fd);
  }
}

/** How far down a file its header row is looked for (a title or junk line or two may sit above it). */
const HEADER_SEARCH_ROWS = 10;

/**
 * A column name as the matching reads it: case, runs of spaces and underscores, and spaces at the
 * ends do not count (`rem mblu map` is `REM_MBLU_MAP`).
 */
export const columnKey = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');

/** Every column name a mapping reads, as columnKey writes them: what its header row holds. */
export function mappingColumns(mapping: Mapping): Set<string> {
  const out = new Set<string>();
  const addKey = (key: FileSpec['key']) => {
    for (const k of key === undefined ? [] : Array.isArray(key) ? key : [key])
      for (const c of Array.isArray(k) ? k : [k]) out.add(columnKey(c));
  };
  const addCondition = (when: Condition | Condition[] | undefined) => {
    for (const c of when === undefined ? [] : Array.isArray(when) ? when : [when])
      if ('column' in c) out.add(columnKey(c.column));
      else if ('any' in c) addCondition(c.any);
  };
  const addValue = (spec: ValueSpec) => {
    for (const c of columnsOf(spec)) out.add(columnKey(c));
    if (typeof spec === 'object' && spec.unitsColumn) out.add(columnKey(spec.unitsColumn));
  };
  addKey(mapping.key);
  for (const f of mapping.files ?? []) addKey(f.key);
  for (const spec of Object.values(mapping.fields)) {
    if (typeof spec === 'object' && 'items' in spec)
      for (const item of spec.items) {
        addCondition(item.when);
        Object.values(item.fields).forEach(addValue);
      }
    else addValue(spec);
  }
  for (const table of Object.values(mapping.codeTables ?? {}))
    if ('file' in table) {
      for (const c of [table.code, table.value]) if (typeof c === 'string') out.add(columnKey(c));
      addCondition(table.when);
    }
  return out;
}

interface RawRow {
  cells: string[];
  line: number;
}

/** A CSV or TSV file's rows as parsed, each with the line it starts on. */
async function* csvRows(
  input: InputFile,
  spec: FileSpec,
  fileName: string,
  onBytes: (n: number) => void,
): AsyncGenerator<RawRow> {
  const delimiter = spec.delimiter ?? detectDelimiter(input.path, fileName);
  const stream = fs.createReadStream(input.path, { highWaterMark: 1024 * 1024 });
  stream.on('data', (chunk) => onBytes(chunk.length));
  const parser = stream.pipe(
    parse({
      bom: true,
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      on_record: ((cells: string[], ctx: InfoRecord) => ({
        cells,
        endLine: ctx.lines,
      })) as unknown as CsvOptions['on_record'],
    }),
  );
  let skew = 0;
  try {
    for await (const row of parser as AsyncIterable<{ cells: string[]; endLine: number }>) {
      const { breaks, crlf } = embeddedLineBreaks(row.cells);
      skew += crlf;
      yield { cells: row.cells, line: row.endLine - skew - breaks };
    }
  } catch (err) {
    throw new MappingError(fileName, [
      `not valid CSV (${(err as Error).message.replace(/ at line \d+.*$/s, '')})`,
    ]);
  } finally {
    parser.destroy();
    stream.destroy();
  }
}

/** A DBF table's records as rows under a header line: record 1 is line 2, as in the CSV it would export. */
function* dbfRows(input: InputFile, fileName: string, onBytes: (n: number) => void): Generator<RawRow> {
  let table;
  try {
    table = readDbf(input.path);
  } catch (err) {
    throw new MappingError(fileName, [(err as Error).message]);
  }
  onBytes(fs.statSync(input.path).size);
  yield { cells: table.headers, line: 1 };
  for (const r of table.rows) yield { cells: r.cells, line: r.record + 1 };
}

const isDbf = (fileName: string) => path.extname(fileName).toLowerCase() === '.dbf';

/**
 * The header row: of the first rows, the first that names the most of the columns the mapping reads
 * (a junk line above it, as Excel and pandas leave, names none); the first row when none names any.
 */
function headerIndex(first: RawRow[], wanted: Set<string>): number {
  let best = 0;
  let most = 0;
  first.forEach((row, i) => {
    const n = row.cells.reduce((k, c) => k + (wanted.has(columnKey(c)) ? 1 : 0), 0);
    if (n > most) {
      most = n;
      best = i;
    }
  });
  return best;
}

async function readTable(
  input: InputFile,
  spec: FileSpec,
  emptyValues: Set<string>,
  wanted: Set<string>,
  onBytes: (n: number) => void,
): Promise<Table> {
  const fileName = input.name ?? path.basename(input.path);
  const source = isDbf(fileName)
    ? dbfRows(input, fileName, onBytes)
    : csvRows(input, spec, fileName, onBytes);
  let headers: string[] | null = spec.header === false ? [] : null;
  let headerLine = spec.header === false ? 0 : 1;
  const rows: string[][] = [];
  const lines: number[] = [];
  const take = (row: RawRow) => {
    let blank = true;
    const cells = row.cells.map((c) => {
      const v = cleanCell(c);
      if (v === '' || emptyValues.has(v)) return '';
      blank = false;
      return v;
    });
    if (blank) return;
    rows.push(cells);
    lines.push(row.line);
  };
  const first: RawRow[] = [];
  for await (const row of source) {
    if (headers === null) {
      first.push(row);
      if (first.length < HEADER_SEARCH_ROWS) continue;
      const at = headerIndex(first, wanted);
      headers = first[at]!.cells.map((h) => h.trim());
      headerLine = first[at]!.line;
      first.slice(at + 1).forEach(take);
      continue;
    }
    take(row);
  }
  if (headers === null && first.length) {
    const at = headerIndex(first, wanted);
    headers = first[at]!.cells.map((h) => h.trim());
    headerLine = first[at]!.line;
    first.slice(at + 1).forEach(take);
  }
  if (spec.header === false) {
    const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
    headers = Array.from({ length: width }, (_, i) => String(i + 1));
  }
  const keys = new Map<string, number>();
  (headers ?? []).forEach((h, i) => {
    const k = columnKey(h);
    if (!keys.has(k)) keys.set(k, i);
  });
  return {
    spec,
    fileName,
    headers: headers ?? [],
    headerLine,
    columnKeys: keys,
    rows,
    lines,
    keyCols: [],
    byKey: null,
    used: new Set(),
  };
}

function columnIndex(table: Table, name: string): number {
  const exact = table.headers.indexOf(name);
  if (exact !== -1) return exact;
  return table.columnKeys.get(columnKey(name)) ?? -1;
}

/**
 * Whether a file name fits a glob (`*` any run of characters, `?` one), ignoring case. Matched in time
 * proportional to the name's length times the glob's, whatever the pattern (a regular expression made
 * from `*a*a*a*b` backtracks for minutes on a long name).
 */
export function globMatch(glob: string, name: string): boolean {
  const g = glob.toLowerCase();
  const s = name.toLowerCase();
  let gi = 0;
  let si = 0;
  let star = -1;
  let mark = 0;
  while (si < s.length) {
    if (gi < g.length && (g[gi] === '?' || g[gi] === s[si])) {
      gi++;
      si++;
    } else if (gi < g.length && g[gi] === '*') {
      star = gi++;
      mark = si;
    } else if (star !== -1) {
      gi = star + 1;
      si = ++mark;
    } else return false;
  }
  while (gi < g.length && g[gi] === '*') gi++;
  return gi === g.length;
}

/** Which input file goes with which file of the mapping: by name pattern, then in the order given. */
function assignFiles(specs: FileSpec[], inputs: InputFile[]): Array<[FileSpec, InputFile[]]> {
  const problems: string[] = [];
  const left = [...inputs];
  const nameOf = (f: InputFile) => f.name ?? path.basename(f.path);
  const take = (pick: (f: InputFile) => boolean, many: boolean) => {
    const out: InputFile[] = [];
    for (let i = 0; i < left.length;) {
      if (pick(left[i]!) && (many || out.length === 0)) out.push(...left.splice(i, 1));
      else i++;
    }
    return out;
  };
  const assigned = new Map<FileSpec, InputFile[]>();
  for (const spec of specs)
    if (spec.name) {
      const glob = spec.name;
      assigned.set(
        spec,
        take((f) => globMatch(glob, nameOf(f)), spec.many ?? false),
      );
    }
  for (const spec of specs)
    if (!spec.name)
      assigned.set(
        spec,
        take(() => true, spec.many ?? false),
      );
  for (const spec of specs)
    if (assigned.get(spec)!.length === 0 && !spec.optional)
      problems.push(
        spec.name
          ? `no file named like "${spec.name}" was given (the mapping's file "${spec.id}")`
          : `a file is missing: the mapping reads ${specs.length} files (${specs.map((s) => s.id).join(', ')})`,
      );
  for (const f of left) problems.push(`${nameOf(f)}: the mapping has no place for this file`);
  if (problems.length) throw new MappingError('files', problems);
  return specs.map((s) => [s, assigned.get(s)!]);
}

// ─── the engine ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Reads the files and prepares the mapping. Throws MappingError, before any record, for every file or
 * column the mapping needs that is not there.
 */
export async function openMappedSource(
  mapping: Mapping,
  inputs: InputFile[],
  options: MappedOptions = {},
): Promise<MappedInput> {
  if (inputs.length === 0) throw new MappingError('files', ['no file was given']);
  const specs: FileSpec[] = mapping.files ?? [{ id: 'roll', ...(mapping.key ? { key: mapping.key } : {}) }];
  const emptyValues = new Set(mapping.emptyValues ?? []);
  const wanted = mappingColumns(mapping);
  let bytes = 0;
  const onBytes = (n: number) => options.onRead?.((bytes += n));
  const tablesOf = new Map<string, Table[]>();
  const tables: Table[] = [];
  for (const [spec, files] of assignFiles(specs, inputs)) {
    const list: Table[] = [];
    for (const f of files) list.push(await readTable(f, spec, emptyValues, wanted, onBytes));
    tablesOf.set(spec.id, list);
    tables.push(...list);
  }
  const engine = new Engine(mapping, specs, tables, tablesOf);
  return {
    source: () => engine.records(),
    fileNames: inputs.map((f) => f.name ?? path.basename(f.path)),
    unusedColumns: tables.map((t) => {
      const unused = t.headers.filter((h, i) => h !== '' && !t.used.has(i));
      return { file: t.fileName, columns: unused.slice(0, UNUSED_SHOWN), count: unused.length };
    }),
    absentColumns: [...engine.absent].map(([column, fields]) => `${column} (${fields.join(', ')})`),
    headerLines: tables
      .filter((t) => t.headerLine > 1)
      .map((t) => ({ file: t.fileName, line: t.headerLine })),
  };
}

interface CompiledSource {
  table: Table | null;
  spec: ItemSource;
  when: ((ctx: Ctx) => boolean) | null;
  fields: Array<{ name: string; kind: Kind; compiled: Compiled; deferredTax: ValueObject | null }>;
}

interface CompiledList {
  name: string;
  spec: ListSpec;
  sources: CompiledSource[];
  owners: boolean;
}

interface Origin {
  source: CompiledSource;
  row: { table: Table; index: number } | null;
}

class Engine {
  private readonly problems: string[] = [];
  /** Missing columns, each with the fields that read it: one message per column. */
  private readonly missing = new Map<string, string[]>();
  private readonly primary: Table;
  private readonly codeTables = new Map<string, (code: string) => string | null>();
  private readonly scalars: Array<{ name: string; kind: Kind; compiled: Compiled; udvLabel: string | null }> =
    [];
  private readonly lists: CompiledList[] = [];
  /** Columns an optional part of the mapping reads that no file has, with the fields that read them. */
  readonly absent = new Map<string, string[]>();
  /** Columns the mapping needs: how many were found, and the names of those that were not. */
  private requiredFound = 0;
  private readonly requiredMissing = new Set<string>();

  constructor(
    private readonly mapping: Mapping,
    specs: FileSpec[],
    private readonly tables: Table[],
    private readonly tablesOf: Map<string, Table[]>,
  ) {
    const dataSpecs = specs.filter((s) => !this.isCodeFile(s.id));
    this.primary = tablesOf.get(dataSpecs[0]?.id ?? specs[0]!.id)![0]!;
    this.indexKeys(dataSpecs);
    for (const [name, table] of Object.entries(mapping.codeTables ?? {})) this.compileCodeTable(name, table);
    for (const [name, spec] of Object.entries(mapping.fields)) {
      const part = RECORD_FIELDS[name]!;
      if (part.k === 'list') {
        this.compileList(name, spec as ListSpec, part.item);
      } else {
        const value = spec as ValueSpec;
        const kind: Kind = part.k === 'value' ? part.kind : 'text';
        this.scalars.push({
          name,
          kind,
          compiled: this.compile(value, name, null, false, kind),
          udvLabel: part.k === 'udv' ? (typeof value === 'object' && value.label) || name : null,
        });
      }
    }
    if (this.requiredFound === 0 && (this.missing.size > 0 || this.requiredMissing.size > 0))
      throw new MappingError('columns', this.doesNotFit());
    for (const [id, fields] of this.missing)
      this.problems.push(`${id} (the mapping reads it for ${fields.join(', ')})`);
    if (this.problems.length) throw new MappingError('columns', [...new Set(this.problems)]);
  }

  /**
   * A file that has none of the columns the mapping needs was not made for it: one line says so and
   * shows what its columns look like, then the columns it lacks (needed apart from optional).
   */
  private doesNotFit(): string[] {
    const name = this.mapping.name ?? 'the mapping';
    const headers = this.primary.headers.filter(Boolean);
    const shown = headers.slice(0, 8).join(', ');
    const optional = [...this.absent.keys()].filter((c) => !this.requiredMissing.has(c));
    return [
      `this file has none of the columns ${name} needs: its columns look like ${shown}${headers.length > 8 ? ', …' : ''}`,
      `columns it needs: ${[...this.requiredMissing].join(', ')}`,
      ...(optional.length ? [`columns it reads when present: ${optional.join(', ')}`] : []),
      `a town's own layout is read through a mapping file: see the examples in docs/examples (Cambridge, Lyme, Lebanon)`,
    ];
  }

  private isCodeFile(id: string): boolean {
    return Object.values(this.mapping.codeTables ?? {}).some((t) => 'file' in t && t.file === id);
  }

  private indexKeys(dataSpecs: FileSpec[]) {
    const keySpec = (s: FileSpec) => s.key ?? (s === dataSpecs[0] ? this.mapping.key : undefined);
    for (const spec of dataSpecs) {
      const key = keySpec(spec);
      const tables = this.tablesOf.get(spec.id) ?? [];
      if (key === undefined) {
        if (spec !== dataSpecs[0] && tables.length)
          this.problems.push(`file "${spec.id}": say which column joins it to the others ("key")`);
        continue;
      }
      // Each alternative is a column, or several whose cells together are the key.
      const names = (Array.isArray(key) ? key : [key]).map((k) => (Array.isArray(k) ? k : [k]));
      const has = (t: Table, cols: string[]) => cols.every((c) => columnIndex(t, c) !== -1);
      // The first of the key's alternatives every file has: files join on the same columns.
      const chosen = names.find((cols) => tables.every((t) => has(t, cols)));
      for (const t of tables) {
        const cols = chosen ?? names.find((c) => has(t, c));
        if (cols === undefined) {
          this.problems.push(
            `${t.fileName} has no column ${names.map((c) => c.map((n) => `"${n}"`).join(' + ')).join(' or ')} (the key that joins the files)`,
          );
          continue;
        }
        t.keyCols = cols.map((c) => columnIndex(t, c));
        for (const c of t.keyCols) t.used.add(c);
        if (t === this.primary) continue;
        const byKey = new Map<string, number[]>();
        t.rows.forEach((row, i) => {
          const k = keyOf(t, row);
          if (k === '') return;
          const list = byKey.get(k);
          if (list) list.push(i);
          else byKey.set(k, [i]);
        });
        t.byKey = byKey;
      }
    }
  }

  /** The primary file's rows, one group per property in the order of first appearance. */
  private primaryGroups(): number[][] {
    const t = this.primary;
    if (t.keyCols.length === 0) return t.rows.map((_, i) => [i]);
    const groups = new Map<string, number[]>();
    const keyless: number[][] = [];
    t.rows.forEach((row, i) => {
      const k = keyOf(t, row);
      if (k === '') {
        keyless.push([i]);
        return;
      }
      const g = groups.get(k);
      if (g) g.push(i);
      else groups.set(k, [i]);
    });
    // A row without a key still becomes a record: its empty account is then reported on its line.
    return [...groups.values(), ...keyless].sort((a, b) => a[0]! - b[0]!);
  }

  // ─── compiling ───

  private resolve(
    name: string,
    where: string,
    file: string | undefined,
    rowTable: Table | null,
    optional: boolean,
  ): Ref | null {
    const candidates = file
      ? (this.tablesOf.get(file) ?? [])
      : [...(rowTable ? [rowTable] : []), ...this.tables];
    for (const table of candidates) {
      if (table !== rowTable && this.isCodeFile(table.spec.id)) continue;
      const col = columnIndex(table, name);
      if (col !== -1) {
        table.used.add(col);
        if (!optional) this.requiredFound++;
        return { table, col, name: table.headers[col]!, rowLevel: table === rowTable };
      }
    }
    if (!optional) {
      this.requiredMissing.add(name);
      const files = file
        ? (this.tablesOf.get(file) ?? []).map((t) => t.fileName)
        : this.tables.filter((t) => !this.isCodeFile(t.spec.id)).map((t) => t.fileName);
      const holder = files.length === 1 ? `${files[0]} has no column` : `none of the files has a column`;
      const id = `${holder} "${name}"`;
      const fields = this.missing.get(id) ?? [];
      if (!fields.includes(where)) fields.push(where);
      this.missing.set(id, fields);
    }
    return null;
  }

  private cell(ref: Ref, ctx: Ctx): string {
    const t = ref.table;
    let index: number | undefined;
    if (ref.rowLevel && ctx.row?.table === t) index = ctx.row.index;
    else if (t === this.primary) index = ctx.primaryRows[0];
    else index = t.byKey?.get(ctx.key)?.[0];
    return index === undefined ? '' : (t.rows[index]![ref.col] ?? '');
  }

  private compile(
    spec: ValueSpec,
    where: string,
    rowTable: Table | null,
    optional = false,
    kind: Kind = 'text',
    nested = false,
  ): Compiled {
    const compiled = this.compileValue(spec, where, rowTable, optional, kind);
    // An optional part of the mapping whose columns no file has: named in every report.
    if (!nested && compiled.refs.length === 0)
      for (const c of columnsOf(spec)) {
        const fields = this.absent.get(c) ?? [];
        if (!fields.includes(where)) fields.push(where);
        this.absent.set(c, fields);
      }
    return compiled;
  }

  private compileValue(
    spec: ValueSpec,
    where: string,
    rowTable: Table | null,
    optional: boolean,
    kind: Kind,
  ): Compiled {
    const s: ValueObject = typeof spec === 'string' ? { column: spec } : spec;
    const opt = optional || s.optional === true;
    const refs: Ref[] = [];
    const ref = (name: string) => {
      const r = this.resolve(name, where, s.file, rowTable, opt);
      if (r) refs.push(r);
      return r;
    };
    let raw: (ctx: Ctx) => string | string[] | Value;
    let what: string;
    if (s.first) {
      const alternatives = s.first.map((a) => this.compile(a, where, rowTable, true, kind, true));
      const names = s.first.map((a) => describeColumns(typeof a === 'string' ? { column: a } : a));
      if (
        !opt &&
        alternatives.every((a) => a.refs.length === 0 && needsColumns(s.first![alternatives.indexOf(a)]!))
      ) {
        this.problems.push(
          `the files have none of the columns ${names.join(', or ')} (the mapping reads one for ${where})`,
        );
        for (const c of s.first.flatMap(columnsOf)) this.requiredMissing.add(c);
      }
      for (const a of alternatives) refs.push(...a.refs);
      what = alternatives.map((a) => a.what).join(' or ');
      const outcome = (ctx: Ctx): Outcome | null => {
        for (const a of alternatives) {
          const o = a.evaluate(ctx);
          if (o !== null) return o;
        }
        return null;
      };
      return { evaluate: (ctx) => this.finish(s, outcome(ctx), ctx, where), refs, what };
    } else if (s.constant !== undefined) {
      const c = s.constant;
      raw = () => c;
      what = 'a constant';
    } else if (s.template !== undefined) {
      const parts = s.template.split(/(\{[^}]+\})/).map((p) => {
        const m = /^\{([^}|]+)(?:\|([A-Za-z]+))?\}$/.exec(p);
        if (!m) return p;
        const [, name, transform] = m as unknown as [string, string, string | undefined];
        if (transform !== undefined && !TEXT_TRANSFORMS.has(transform))
          this.problems.push(
            `${where}: the template's {${name}|${transform}}: ${transform} is not a text transform`,
          );
        return { ref: ref(name.trim()), transform };
      });
      // A template whose placeholders are all empty is empty, not its punctuation.
      raw = (ctx) => {
        let filled = false;
        const text = parts
          .map((p) => {
            if (typeof p === 'string') return p;
            const v = p.ref ? this.cell(p.ref, ctx) : '';
            if (v) filled = true;
            return v && p.transform ? textTransform(p.transform, v) : v;
          })
          .join('');
        return filled ? cleanCell(text) : '';
      };
      what = `template ${JSON.stringify(s.template)}`;
    } else if (s.columns) {
      const rs = s.columns.map((c) => ref(c));
      raw = (ctx) => rs.map((r) => (r ? this.cell(r, ctx) : ''));
      what = `columns ${s.columns.map((c) => `"${c}"`).join(', ')}`;
    } else if (s.column !== undefined) {
      const r = ref(s.column);
      raw = (ctx) => (r ? this.cell(r, ctx) : '');
      what = `column "${r?.name ?? s.column}"`;
    } else {
      raw = () => null;
      what = 'the tax row';
    }
    const units = s.unitsColumn ? ref(s.unitsColumn) : null;
    // A date's placeholders (Vision's 1/1/1901 for "no date") are empty however the file writes them.
    const emptyDates = new Set(
      (s.transform === 'date' || (s.transform === undefined && kind === 'date') ? (s.empty ?? []) : [])
        .map(toDate)
        .flatMap((d) => ('value' in d ? [d.value] : [])),
    );
    const evaluate = (ctx: Ctx): Outcome | null => {
      let v = raw(ctx);
      if (Array.isArray(v)) {
        if (v.every((x) => x === '')) return null;
      } else if (v === '' || v === null) return null;
      if (typeof v === 'string' && s.empty?.includes(v)) return null;
      // A code is looked up as written, before the transform reads what the table gave.
      if (s.lookup !== undefined && typeof v === 'string') {
        const found = this.codeTables.get(s.lookup)!(v);
        if (found === null || found === '') {
          if (found === null)
            note(ctx, where, 'code', `${quoteCell(v)} is not in the code table "${s.lookup}"`);
          return null;
        }
        v = found;
      }
      // Without a transform a cell is read as the field's kind says: "1,234" for a number, 7/5/2005 for a date.
      const t = s.transform ?? (kind === 'text' ? undefined : kind);
      if (t === undefined || t === 'text' || t === 'taxAmount')
        return { value: Array.isArray(v) ? v.filter(Boolean).join(' ') : v };
      if (Array.isArray(v) && t !== 'sum' && t !== 'mapLot') v = v.filter(Boolean).join(' ');
      const o = this.apply(t, v, s, units ? this.cell(units, ctx) : '');
      if ('converted' in o && o.converted) note(ctx, where, 'unit', o.converted);
      return emptyDates.size && 'value' in o && emptyDates.has(o.value as string) ? null : o;
    };
    return { evaluate: (ctx) => this.finish(s, evaluate(ctx), ctx, where), refs, what };
  }

  /** Empty results and the `invalid` rule, after the transform. */
  private finish(s: ValueObject, o: Outcome | null, ctx: Ctx, where: string): Outcome | null {
    if (o === null || ('value' in o && (o.value === '' || o.value === null))) return null;
    if ('problem' in o) {
      if (s.invalid !== 'empty') return o;
      note(ctx, where, 'invalid', o.problem);
      return null;
    }
    return o;
  }

  private apply(t: string, v: string | string[] | Value, s: ValueObject, unitsCell: string): Outcome {
    if (Array.isArray(v)) {
      if (t === 'mapLot') return { value: mapLot(v) };
      let sum = 0;
      for (const [i, x] of v.entries()) {
        if (x === '') continue;
        const n = parseNumber(x);
        if (n === null)
          return { problem: `expected a number, got ${JSON.stringify(x)} (column "${s.columns![i]}")` };
        sum += n;
      }
      return { value: sum };
    }
    if (typeof v !== 'string') return { value: v };
    switch (t) {
      case 'number':
      case 'sum':
        return toNumber(v);
      case 'integer':
        return toInteger(v);
      case 'fraction':
        return toFraction(v);
      case 'stories':
        return toStories(v);
      case 'date':
        return toDate(v);
      case 'flag':
        return toFlag(v);
      case 'perThousand':
        return perThousand(v);
      case 'acres':
      case 'squareFeet': {
        const unitText = s.units ?? unitsCell;
        const from =
          areaUnit(unitText) ??
          (unitText === 'acres' || unitText === 'squareFeet' ? (unitText as AreaUnit) : null);
        if (!from)
          return {
            problem: `unknown area unit ${JSON.stringify(unitText)}${s.unitsColumn ? ` (column "${s.unitsColumn}")` : ''}: expected acres (A) or square feet (S)`,
          };
        const area = convertArea(v, from, t);
        return from === t || !('value' in area)
          ? area
          : {
              ...area,
              converted: `${quoteCell(v)} ${from === 'acres' ? 'acres' : 'square feet'} → ${String(area.value)} ${t === 'acres' ? 'acres' : 'square feet'}`,
            };
      }
      default:
        return { value: textTransform(t, v) };
    }
  }

  private compileCodeTable(name: string, table: CodeTable) {
    const entries: Array<[string, string]> = [];
    if ('values' in table) entries.push(...Object.entries(table.values));
    else {
      const source = this.tablesOf.get(table.file)?.[0];
      if (!source) {
        this.problems.push(`code table "${name}": no file with id "${table.file}"`);
        return;
      }
      const col = (c: string | number) => {
        const i = typeof c === 'number' ? c - 1 : columnIndex(source, c);
        if (i < 0 || i >= source.headers.length)
          this.problems.push(`${source.fileName} has no column "${c}" (code table "${name}")`);
        return i;
      };
      const code = col(table.code);
      const value = col(table.value);
      source.used.add(code).add(value);
      const when = this.compileWhen(table.when, source, `code table "${name}"`);
      source.rows.forEach((row, index) => {
        const ctx: Ctx = { key: '', primaryRows: [], row: { table: source, index } };
        if (when && !when(ctx)) return;
        if (row[code]) entries.push([row[code]!, row[value] ?? '']);
      });
    }
    const wildcard = table.wildcard;
    const exact = new Map<string, string>();
    const patterns: Array<[RegExp, string]> = [];
    for (const [code, value] of entries) {
      if (wildcard && code.includes(wildcard))
        patterns.push([
          new RegExp(
            `^${code
              .split(wildcard)
              .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
              .join('.')}$`,
            'i',
          ),
          value,
        ]);
      else if (!exact.has(code.toUpperCase())) exact.set(code.toUpperCase(), value);
    }
    const keep = table.missing === 'keep';
    this.codeTables.set(
      name,
      (code) =>
        exact.get(code.toUpperCase()) ?? patterns.find(([re]) => re.test(code))?.[1] ?? (keep ? code : null),
    );
  }

  private compileWhen(
    when: Condition | Condition[] | undefined,
    rowTable: Table | null,
    where: string,
  ): ((ctx: Ctx) => boolean) | null {
    if (!when) return null;
    const tests = (Array.isArray(when) ? when : [when]).map((c): ((ctx: Ctx) => boolean) => {
      if ('any' in c) {
        const alternatives = c.any.map((a) => this.compileWhen(a, rowTable, where)!);
        return (ctx) => alternatives.some((a) => a(ctx));
      }
      if ('noRowsIn' in c) {
        const ts = this.tablesOf.get(c.noRowsIn);
        if (!ts) this.problems.push(`${where}: no file with id "${c.noRowsIn}"`);
        return (ctx) => (ts ?? []).every((t) => !t.byKey?.get(ctx.key)?.length);
      }
      const r = this.resolve(c.column, `${where} (when)`, c.file, rowTable, c.optional === true);
      const re = c.matches !== undefined ? safePattern(c.matches) : null;
      return (ctx) => {
        const v = r ? this.cell(r, ctx) : '';
        if (c.empty !== undefined && (v === '') !== c.empty) return false;
        if (c.equals !== undefined && v.toUpperCase() !== c.equals.toUpperCase()) return false;
        if (c.in && !c.in.some((x) => x.toUpperCase() === v.toUpperCase())) return false;
        if (c.notIn?.some((x) => x.toUpperCase() === v.toUpperCase())) return false;
        if (re && !re.test(v)) return false;
        if (c.flag !== undefined) {
          const f = v === '' ? null : toFlag(v);
          if (!f || !('value' in f) || f.value !== c.flag) return false;
        }
        return true;
      };
    });
    return (ctx) => tests.every((t) => t(ctx));
  }

  private compileList(name: string, spec: ListSpec, shape: Record<string, Kind>) {
    const kinds = new Map(Object.entries(shape));
    const sources = spec.items.map((item, i): CompiledSource => {
      const where = `${name} (items ${i + 1})`;
      let table: Table | null = null;
      if (item.rows !== undefined) {
        const ts = this.tablesOf.get(item.rows) ?? [];
        // Of several files for one id, the one holding the item's columns.
        const cols = Object.values(item.fields).flatMap((f) => columnsOf(f));
        table = ts.find((t) => cols.some((c) => columnIndex(t, c) !== -1)) ?? ts[0] ?? null;
      }
      return {
        table,
        spec: item,
        when: this.compileWhen(item.when, table, where),
        fields: Object.entries(item.fields).map(([field, f]) => ({
          name: field,
          kind: kinds.get(field)!,
          compiled: this.compile(f, `${name}.${field}`, table, false, kinds.get(field)!),
          deferredTax: typeof f === 'object' && f.transform === 'taxAmount' ? f : null,
        })),
      };
    });
    this.lists.push({ name, spec, sources, owners: name === 'Owners' });
  }

  // ─── evaluating ───

  async *records(): AsyncGenerator<SourceRecord> {
    const seen = this.mapping.repeatedAccounts === 'number' ? new Map<string, number>() : null;
    for (const group of this.primaryGroups()) {
      const first = group[0]!;
      const ctx: Ctx = {
        key: keyOf(this.primary, this.primary.rows[first]!),
        primaryRows: group,
        row: null,
      };
      const line = this.primary.lines[first]!;
      yield this.record(ctx, line, seen);
    }
  }

  private record(ctx: Ctx, line: number, seen: Map<string, number> | null): SourceRecord {
    const notes: ValueNote[] = [];
    ctx.notes = notes;
    const value: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const f of this.scalars) {
      const o = f.compiled.evaluate(ctx);
      const v = this.coerce(
        o,
        f.udvLabel !== null ? 'text' : f.kind,
        `${f.name} (${f.compiled.what})`,
        problems,
      );
      if (v === null) continue;
      value[f.name] = f.udvLabel !== null ? { Description: f.udvLabel, UserDefinedValue: v } : v;
    }
    if (seen && typeof value.Account === 'string') {
      const key = value.Account.toUpperCase();
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (n > 1) value.Account = `${value.Account}.${n}`;
    }
    const origins = new Map<string, Origin[]>();
    for (const list of this.lists) {
      const items: Array<{ item: Record<string, unknown>; origin: Origin }> = [];
      for (const src of list.sources) {
        const rows = src.table ? this.rowsOf(src.table, ctx) : [null];
        for (const index of rows) {
          const rowCtx: Ctx = index === null ? ctx : { ...ctx, row: { table: src.table!, index } };
          if (src.when && !src.when(rowCtx)) continue;
          const origin: Origin = { source: src, row: rowCtx.row };
          const item: Record<string, unknown> = {};
          const at = `${list.name}[${items.length}]`;
          for (const f of src.fields) {
            if (f.deferredTax) continue;
            const v = this.coerce(
              f.compiled.evaluate(rowCtx),
              f.kind,
              `${at}.${f.name} (${this.describe(f.compiled, rowCtx.row)})`,
              problems,
            );
            if (v !== null) item[f.name] = v;
          }
          for (const f of src.fields) {
            if (!f.deferredTax) continue;
            const taxable =
              f.deferredTax.column !== undefined
                ? toNumberOrNull(f.compiled.evaluate(rowCtx))
                : (item.TaxableValue as number | undefined);
            const rate = f.deferredTax.rate ?? (item.Rate as number | undefined);
            if (typeof taxable === 'number' && typeof rate === 'number')
              item[f.name] = taxAmount(rate, taxable);
          }
          if (Object.keys(item).length === 0) continue;
          // A second owner column is usually empty: an owner without a name is no owner.
          if (list.owners && item.OwnerName === undefined) continue;
          items.push({ item, origin });
        }
      }
      let kept = items;
      const unique = list.spec.unique;
      if (unique !== undefined) {
        const keys = new Set<string>();
        kept = kept.filter(({ item }) => {
          const k = unique === true ? JSON.stringify(item) : JSON.stringify(item[unique] ?? null);
          if (keys.has(k)) return false;
          keys.add(k);
          return true;
        });
      }
      if (list.spec.sort) {
        const [field, order] = list.spec.sort.split(' ') as [string, string | undefined];
        const sign = order === 'desc' ? -1 : 1;
        kept = [...kept].sort((a, b) => compareValues(a.item[field], b.item[field], sign));
      }
      if (kept.length) {
        value[list.name] = kept.map((k) => k.item);
        origins.set(
          list.name,
          kept.map((k) => k.origin),
        );
      }
    }
    if (problems.length)
      return { line, error: problems.join('; '), partial: value, ...(notes.length ? { notes } : {}) };
    return {
      line,
      ...(notes.length ? { notes } : {}),
      value,
      field: (p) => this.fieldOf(p, origins),
    };
  }

  private rowsOf(table: Table, ctx: Ctx): number[] {
    if (table === this.primary) return ctx.primaryRows;
    return table.byKey?.get(ctx.key) ?? [];
  }

  private describe(c: Compiled, row: { table: Table; index: number } | null): string {
    const rowRef = row && c.refs.some((r) => r.rowLevel && r.table === row.table);
    if (!rowRef || row.table === this.primary) return c.what;
    return `${c.what} of ${row.table.fileName} line ${row.table.lines[row.index]}`;
  }

  /** Where a value the record's check rejected came from: `Sales[1].SalePrice (column "LS_PRICE")`. */
  private fieldOf(p: PropertyKey[], origins: Map<string, Origin[]>): string | null {
    const [first, index, field] = p;
    if (typeof first !== 'string') return null;
    const scalar = this.scalars.find((f) => f.name === first);
    if (scalar) return `${first} (${scalar.compiled.what})`;
    const origin = typeof index === 'number' ? origins.get(first)?.[index] : undefined;
    if (!origin || typeof field !== 'string') return null;
    const f = origin.source.fields.find((x) => x.name === field);
    return f ? `${first}[${String(index)}].${field} (${this.describe(f.compiled, origin.row)})` : null;
  }

  /** A value as the record's field takes it: lossless coercion between text and numbers. */
  private coerce(o: Outcome | null, kind: Kind, where: string, problems: string[]): Value {
    if (o === null) return null;
    if ('problem' in o) {
      problems.push(`${where}: ${o.problem}`);
      return null;
    }
    const v = o.value;
    if (v === null) return null;
    if (kind === 'text') return typeof v === 'boolean' ? (v ? 'Yes' : 'No') : String(v);
    if (kind === 'flag') {
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number') return v !== 0;
      const f = toFlag(v);
      if ('problem' in f) problems.push(`${where}: ${f.problem}`);
      return 'value' in f ? f.value : null;
    }
    if (kind === 'date') {
      if (typeof v !== 'string') {
        problems.push(`${where}: expected a date, got ${String(v)}`);
        return null;
      }
      // Already a date when a transform made it; anything else is read now.
      if (ISO_DATE.test(v)) return v;
      const d = toDate(v);
      if ('problem' in d) problems.push(`${where}: ${d.problem}`);
      return 'value' in d ? d.value : null;
    }
    if (typeof v === 'number') {
      if (kind === 'integer' && !Number.isInteger(v))
        problems.push(`${where}: expected a whole number, got ${v}`);
      return v;
    }
    if (typeof v === 'boolean') return v ? 1 : 0;
    const n = kind === 'integer' ? toInteger(v) : toNumber(v);
    if ('problem' in n) {
      problems.push(`${where}: ${n.problem}`);
      return null;
    }
    return n.value;
  }
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function note(ctx: Ctx, field: string, kind: AdjustKind, text: string) {
  ctx.notes?.push({ field, kind, text });
}

const quoteCell = (s: string | string[] | Value) =>
  JSON.stringify(typeof s === 'string' && s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** A row's key: its key column's cell, or its key columns' cells joined by "/"; empty when all are. */
function keyOf(t: Table, row: string[]): string {
  if (t.keyCols.length === 1) return (row[t.keyCols[0]!] ?? '').toUpperCase();
  const parts = t.keyCols.map((c) => row[c] ?? '');
  return parts.every((p) => p === '') ? '' : parts.join('/').toUpperCase();
}

function toNumberOrNull(o: Outcome | null): number | null {
  if (!o || !('value' in o)) return null;
  if (typeof o.value === 'number') return o.value;
  return typeof o.value === 'string' ? parseNumber(o.value) : null;
}

function compareValues(a: unknown, b: unknown, sign: number): number {
  const an = a === undefined || a === null;
  const bn = b === undefined || b === null;
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return (a - b) * sign;
  return String(a).localeCompare(String(b)) * sign;
}

function textTransform(t: string, v: string): string {
  switch (t) {
    case 'streetNumber':
      return splitStreetAddress(v).number;
    case 'streetName':
      return splitStreetAddress(v).street;
    case 'unit':
      return splitStreetAddress(v).unit;
    case 'zip':
      return restoreZip(v);
    case 'book':
      return splitBookPage(v).book;
    case 'page':
      return splitBookPage(v).page;
    case 'mapLot':
      return mapLot([v]);
    case 'account':
      return accountText(v);
    default:
      return v;
  }
}

function columnsOf(spec: ValueSpec): string[] {
  if (typeof spec === 'string') return [spec];
  return [
    ...(spec.column ? [spec.column] : []),
    ...(spec.columns ?? []),
    ...(spec.first ?? []).flatMap(columnsOf),
    ...[...(spec.template?.matchAll(/\{([^}|]+)/g) ?? [])].map((m) => m[1]!.trim()),
  ];
}

function needsColumns(spec: ValueSpec): boolean {
  return columnsOf(spec).length > 0;
}

function describeColumns(spec: ValueObject): string {
  const cols = columnsOf(spec);
  return cols.length ? cols.join(' and ') : 'a constant';
}
