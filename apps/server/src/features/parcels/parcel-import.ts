import type { ParcelLayerKey, ParcelLayerReport } from '@opp/contracts';
import type { Db, Executor } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import { auditService, type AuditActor } from '../audit/audit.service.ts';
import { clientsService } from '../clients/clients.service.ts';
import { codeKey } from '../properties/search-text.ts';
import { cleanPolygons, type MultiPolygon } from './parcel-geometry.ts';
import { readParcelFile, type SourceFeature } from './parcel-files.ts';
import { parcelsRepository, type StoredShape } from './parcels.repository.ts';

/*
 * A parcel layer checked against the client's published roll, then stored in one step (or not at all).
 * The key is compared as search compares map/lots (codeKey: case folded, every run of punctuation
 * alike), so a layer's `12-3-A` finds the roll's `12.3.a` and `12 - 3/A`.
 */

/** How many entries each list of the report shows. */
export const REPORT_LIST_LIMIT = 20;

export interface ParcelImportOptions {
  clientId: number;
  /** The published roll the layer is joined to for the report (null: none yet). */
  rollId: number | null;
  key: ParcelLayerKey;
  /** The feature property holding the key (default: the key's own name). */
  property?: string;
  fileName: string;
  dryRun: boolean;
  /** Runs inside the layer's transaction after it is written (the audit entry). */
  onWrite?: (tx: Executor, layerId: number, shapes: number) => Promise<void>;
}

export interface CountedList {
  count: number;
  /** The first REPORT_LIST_LIMIT entries. */
  first: string[];
}

export interface ParcelImportReport {
  featuresRead: number;
  /** Distinct keys stored (features sharing a key become one shape). */
  shapes: number;
  recordsMatched: number;
  recordsWithoutShape: CountedList;
  shapesWithoutRecord: CountedList;
  /** Repairs and oddities that did not stop the import. */
  warnings: CountedList;
  /** What stopped it: nothing was written when there is any. */
  problems: CountedList;
  /** The stored layer's id; null when nothing was written (problems, or a dry run). */
  layerId: number | null;
}

class Counted {
  count = 0;
  readonly first: string[] = [];
  add(entry: string) {
    this.count++;
    if (this.first.length < REPORT_LIST_LIMIT) this.first.push(entry);
  }
  toJSON(): CountedList {
    return { count: this.count, first: this.first };
  }
}

/** Longitude/latitude to 7 decimals (about a centimetre): stored text a third shorter. */
const round7 = (n: number) => Math.round(n * 1e7) / 1e7;
const storedCoordinates = (shape: MultiPolygon) =>
  JSON.stringify(shape.map((p) => p.map((r) => r.map(([x, y]) => [round7(x), round7(y)]))));

export async function importParcelLayer(
  db: Db,
  features: SourceFeature[],
  options: ParcelImportOptions,
): Promise<ParcelImportReport> {
  const property = options.property ?? options.key;
  const warnings = new Counted();
  const problems = new Counted();
  const shapesWithoutRecord = new Counted();
  const byCode = new Map<string, { key: string; shape: MultiPolygon; features: number }>();

  for (const f of features) {
    const raw = f.properties[property];
    const key = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
    const name = `feature ${f.n}${key ? ` (${property} ${key})` : ''}`;
    const cleaned = cleanPolygons(f.geometry);
    if (!cleaned.ok) {
      problems.add(`${name} ${cleaned.problem}`);
      continue;
    }
    for (const r of cleaned.repairs) warnings.add(`${name}: ${r}`);
    if (cleaned.coordinates.length === 0) {
      // A sliver (Cambridge's 238-80 is one: four positions on a line). Its records go without a shape
      // rather than the whole city's layer failing over it.
      warnings.add(`${name} has no usable polygon left after its repairs: it is left out`);
      continue;
    }
    const code = key ? codeKey(key) : '';
    if (!code) {
      // No key (or one without a letter or digit, such as Cambridge's `---` on streets): no record can
      // join it, so it is one of the shapes without a record and is not stored.
      shapesWithoutRecord.add(`feature ${f.n} (${key ? `${property} "${key}"` : `no ${property}`})`);
      continue;
    }
    const same = byCode.get(code);
    if (same) {
      same.shape.push(...cleaned.coordinates);
      same.features++;
      if (same.features === 2)
        warnings.add(`${property} ${same.key} is on more than one feature: their polygons form one parcel`);
    } else byCode.set(code, { key, shape: cleaned.coordinates, features: 1 });
  }

  // The join, as readers will see it: each record finds the shape of its key.
  const recordsWithoutShape = new Counted();
  const joinedCodes = new Set<string>();
  let recordsMatched = 0;
  if (options.rollId !== null) {
    for await (const batch of parcelsRepository.recordBatches(db, options.rollId))
      for (const r of batch) {
        const value = options.key === 'Account' ? r.account : r.mapLot;
        const code = value ? codeKey(value) : '';
        if (code && byCode.has(code)) {
          recordsMatched++;
          joinedCodes.add(code);
        } else
          recordsWithoutShape.add(
            options.key === 'Account'
              ? `Account ${r.account}`
              : `Account ${r.account} (Map/Lot ${r.mapLot || 'none'})`,
          );
      }
  }
  for (const [code, s] of byCode) if (!joinedCodes.has(code)) shapesWithoutRecord.add(`${property} ${s.key}`);

  let layerId: number | null = null;
  if (problems.count === 0 && !options.dryRun) {
    const shapes: StoredShape[] = [...byCode].map(([code, s]) => ({
      key: s.key,
      keyCode: code,
      coordinates: storedCoordinates(s.shape),
    }));
    layerId = await db.transaction(async (tx) => {
      const id = await parcelsRepository.replaceLayer(
        tx,
        { clientId: options.clientId, keyField: options.key, fileName: options.fileName },
        shapes,
      );
      await options.onWrite?.(tx, id, shapes.length);
      return id;
    });
  }
  return {
    featuresRead: features.length,
    shapes: byCode.size,
    recordsMatched,
    recordsWithoutShape: recordsWithoutShape.toJSON(),
    shapesWithoutRecord: shapesWithoutRecord.toJSON(),
    warnings: warnings.toJSON(),
    problems: problems.toJSON(),
    layerId,
  };
}

export interface ParcelFileImport {
  clientId: number;
  /** The file on disk (a temporary copy of an upload) and the name it is known by. */
  filePath: string;
  fileName: string;
  key: ParcelLayerKey;
  property?: string;
  dryRun: boolean;
  /** Who is importing, for the audit entry written with the layer. */
  audit: { actor: AuditActor | null; ip: string | null };
}

/**
 * A parcel layer file imported for a client: what `portal parcels import` and the provider console's
 * upload both run. 404 for an unknown client; ParcelFileError for a file that is not a parcel layer.
 */
export async function importParcelFile(db: Db, input: ParcelFileImport): Promise<ParcelImportReport> {
  const client = await clientsService.findById(db, input.clientId);
  if (!client) throw notFound('Unable to find the client');
  const features = await readParcelFile(input.filePath, input.fileName);
  return importParcelLayer(db, features, {
    clientId: client.id,
    rollId: client.activeRollId,
    key: input.key,
    property: input.property,
    fileName: input.fileName,
    dryRun: input.dryRun,
    onWrite: (tx, layerId, shapes) =>
      auditService.record(tx, {
        ...input.audit,
        clientId: client.id,
        action: 'parcels.import',
        entity: 'parcel_layer',
        entityId: layerId,
        after: { FileName: input.fileName, Key: input.key, Shapes: shapes },
      }),
  });
}

/** The report as the API answers it. */
export function parcelLayerReportDto(r: ParcelImportReport, input: ParcelFileImport): ParcelLayerReport {
  const list = (l: CountedList) => ({ Count: l.count, First: l.first });
  return {
    FileName: input.fileName,
    Key: input.key,
    Property: input.property ?? input.key,
    FeaturesRead: r.featuresRead,
    Shapes: r.shapes,
    RecordsMatched: r.recordsMatched,
    RecordsWithoutShape: list(r.recordsWithoutShape),
    ShapesWithoutRecord: list(r.shapesWithoutRecord),
    Warnings: list(r.warnings),
    Problems: list(r.problems),
    DryRun: input.dryRun,
    Replaced: r.layerId !== null,
  };
}

/** The report as the command prints it: counts, then each list's first entries. */
export function formatParcelReport(r: ParcelImportReport): string[] {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = [
    `Features read: ${n(r.featuresRead)}`,
    `Parcel shapes: ${n(r.shapes)}`,
    `Records matched: ${n(r.recordsMatched)}`,
    `Records without a shape: ${n(r.recordsWithoutShape.count)}`,
    `Shapes without a record: ${n(r.shapesWithoutRecord.count)}`,
    `Warnings: ${n(r.warnings.count)}`,
  ];
  if (r.problems.count) lines.push(`Problems: ${n(r.problems.count)}`);
  const list = (title: string, l: CountedList) => {
    if (l.count === 0) return;
    lines.push(
      '',
      `${title}${l.count > l.first.length ? ` (first ${l.first.length} of ${n(l.count)})` : ''}:`,
    );
    for (const e of l.first) lines.push(`  ${e}`);
  };
  list('Problems', r.problems);
  list('Warnings', r.warnings);
  list('Records without a shape', r.recordsWithoutShape);
  list('Shapes without a record', r.shapesWithoutRecord);
  return lines;
}
