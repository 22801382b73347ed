import fs from 'node:fs';
import path from 'node:path';
import { parse, type InfoRecord, type Options as CsvOptions } from 'csv-parse';
import type { RecordSource } from '../import.service.ts';
import { embeddedLineBreaks } from '../record-sources.ts';
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
  /** Columns of each file that no part of the mapping reads. */
  unusedColumns: Array<{ file: string; columns: string[] }>;
}

export interface MappedOptions {
  onRead?: (bytesRead: number) => void;
}

interface Table {
  spec: FileSpec;
  fileName: string;
  headers: string[];
  rows: string[][];
  lines: number[];
  keyCol: number;
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
    const first = buf.toString('utf8', 0, n).split(/\r?\n/)[0] ?? '';
    const counts = [',', '\t', ';', '|'].map((d) => [d, first.split(d).length] as const);
    return counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  } finally {
    fs.closeSync(fd);
  }
}

async function readTable(
  input: InputFile,
  spec: FileSpec,
  emptyValues: Set<string>,
  onBytes: (n: number) => void,
): Promise<Table> {
  const fileName = input.name ?? path.basename(input.path);
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
  let headers: string[] | null = spec.header === false ? [] : null;
  const rows: string[][] = [];
  const lines: number[] = [];
  let skew = 0;
  try {
    for await (const row of parser as AsyncIterable<{ cells: string[]; endLine: number }>) {
      const { breaks, crlf } = embeddedLineBreaks(row.cells);
      skew += crlf;
      const line = row.endLine - skew - breaks;
      if (headers === null) {
        headers = row.cells.map((h) => h.trim());
        continue;
      }
      let blank = true;
      const cells = row.cells.map((c) => {
        const v = cleanCell(c);
        if (v === '' || emptyValues.has(v)) return '';
        blank = false;
        return v;
      });
      if (blank) continue;
      rows.push(cells);
      lines.push(line);
    }
  } catch (err) {
    throw new MappingError(fileName, [
      `not valid CSV (${(err as Error).message.replace(/ at line \d+.*$/s, '')})`,
    ]);
  } finally {
    parser.destroy();
    stream.destroy();
  }
  if (spec.header === false) {
    const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
    headers = Array.from({ length: width }, (_, i) => String(i + 1));
  }
  return { spec, fileName, headers: headers ?? [], rows, lines, keyCol: -1, byKey: null, used: new Set() };
}

function columnIndex(table: Table, name: string): number {
  const exact = table.headers.indexOf(name);
  if (exact !== -1) return exact;
  const key = name.trim().toLowerCase();
  return table.headers.findIndex((h) => h.toLowerCase() === key);
}

const globRegex = (glob: string) =>
  new RegExp(
    `^${glob
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
    'i',
  );

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
      const re = globRegex(spec.name);
      assigned.set(
        spec,
        take((f) => re.test(nameOf(f)), spec.many ?? false),
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
  let bytes = 0;
  const onBytes = (n: number) => options.onRead?.((bytes += n));
  const tablesOf = new Map<string, Table[]>();
  const tables: Table[] = [];
  for (const [spec, files] of assignFiles(specs, inputs)) {
    const list: Table[] = [];
    for (const f of files) list.push(await readTable(f, spec, emptyValues, onBytes));
    tablesOf.set(spec.id, list);
    tables.push(...list);
  }
  const engine = new Engine(mapping, specs, tables, tablesOf);
  return {
    source: () => engine.records(),
    fileNames: inputs.map((f) => f.name ?? path.basename(f.path)),
    unusedColumns: tables.map((t) => ({
      file: t.fileName,
      columns: t.headers.filter((h, i) => h !== '' && !t.used.has(i)),
    })),
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
    for (const [id, fields] of this.missing)
      this.problems.push(`${id} (the mapping reads it for ${fields.join(', ')})`);
    if (this.problems.length) throw new MappingError('columns', [...new Set(this.problems)]);
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
      const names = Array.isArray(key) ? key : [key];
      // The first of the key's names every file has: files join on the same column.
      const chosen = names.find((n) => tables.every((t) => columnIndex(t, n) !== -1));
      for (const t of tables) {
        const name = chosen ?? names.find((n) => columnIndex(t, n) !== -1);
        if (name === undefined) {
          this.problems.push(
            `${t.fileName} has no column ${names.map((n) => `"${n}"`).join(' or ')} (the key that joins the files)`,
          );
          continue;
        }
        t.keyCol = columnIndex(t, name);
        t.used.add(t.keyCol);
        if (t === this.primary) continue;
        const byKey = new Map<string, number[]>();
        t.rows.forEach((row, i) => {
          const k = (row[t.keyCol] ?? '').toUpperCase();
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
    if (t.keyCol === -1) return t.rows.map((_, i) => [i]);
    const groups = new Map<string, number[]>();
    const keyless: number[][] = [];
    t.rows.forEach((row, i) => {
      const k = (row[t.keyCol] ?? '').toUpperCase();
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
        return { table, col, name: table.headers[col]!, rowLevel: table === rowTable };
      }
    }
    if (!optional) {
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
      const alternatives = s.first.map((a) => this.compile(a, where, rowTable, true, kind));
      const names = s.first.map((a) => describeColumns(typeof a === 'string' ? { column: a } : a));
      if (
        !opt &&
        alternatives.every((a) => a.refs.length === 0 && needsColumns(s.first![alternatives.indexOf(a)]!))
      )
        this.problems.push(
          `the files have none of the columns ${names.join(', or ')} (the mapping reads one for ${where})`,
        );
      for (const a of alternatives) refs.push(...a.refs);
      what = alternatives.map((a) => a.what).join(' or ');
      const outcome = (ctx: Ctx): Outcome | null => {
        for (const a of alternatives) {
          const o = a.evaluate(ctx);
          if (o !== null) return o;
        }
        return null;
      };
      return { evaluate: (ctx) => this.finish(s, outcome(ctx)), refs, what };
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
    const evaluate = (ctx: Ctx): Outcome | null => {
      let v = raw(ctx);
      if (Array.isArray(v)) {
        if (v.every((x) => x === '')) return null;
      } else if (v === '' || v === null) return null;
      if (typeof v === 'string' && s.empty?.includes(v)) return null;
      // A code is looked up as written, before the transform reads what the table gave.
      if (s.lookup !== undefined && typeof v === 'string') {
        const found = this.codeTables.get(s.lookup)!(v);
        if (found === null || found === '') return null;
        v = found;
      }
      // Without a transform a cell is read as the field's kind says: "1,234" for a number, 7/5/2005 for a date.
      const t = s.transform ?? (kind === 'text' ? undefined : kind);
      if (t === undefined || t === 'text' || t === 'taxAmount')
        return { value: Array.isArray(v) ? v.filter(Boolean).join(' ') : v };
      if (Array.isArray(v) && t !== 'sum' && t !== 'mapLot') v = v.filter(Boolean).join(' ');
      return this.apply(t, v, s, units ? this.cell(units, ctx) : '');
    };
    return { evaluate: (ctx) => this.finish(s, evaluate(ctx)), refs, what };
  }

  /** Empty results and the `invalid` rule, after the transform. */
  private finish(s: ValueObject, o: Outcome | null): Outcome | null {
    if (o === null || ('value' in o && (o.value === '' || o.value === null))) return null;
    if ('problem' in o) return s.invalid === 'empty' ? null : o;
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
        return convertArea(v, from, t);
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
      if ('noRowsIn' in c) {
        const ts = this.tablesOf.get(c.noRowsIn);
        if (!ts) this.problems.push(`${where}: no file with id "${c.noRowsIn}"`);
        return (ctx) => (ts ?? []).every((t) => !t.byKey?.get(ctx.key)?.length);
      }
      const r = this.resolve(c.column, `${where} (when)`, c.file, rowTable, c.optional === true);
      const re = c.matches !== undefined ? new RegExp(c.matches, 'i') : null;
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
        key: (this.primary.rows[first]![this.primary.keyCol] ?? '').toUpperCase(),
        primaryRows: group,
        row: null,
      };
      const line = this.primary.lines[first]!;
      yield this.record(ctx, line, seen);
    }
  }

  private record(ctx: Ctx, line: number, seen: Map<string, number> | null): SourceRecord {
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
    if (problems.length) return { line, error: problems.join('; ') };
    return {
      line,
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
