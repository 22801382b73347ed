import {
  describeMapLoss,
  PARCEL_LAYER_KEY_LABELS,
  type ParcelLayerKey,
  type ParcelLayerReport,
} from '@opp/contracts';
import type { Db, Executor } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import { auditService, type AuditActor } from '../audit/audit.service.ts';
import { clientsService } from '../clients/clients.service.ts';
import { codeKey } from '../properties/search-text.ts';
import { boundsOf, cleanPolygons, type MultiPolygon } from './parcel-geometry.ts';
import { readParcelFile, type SourceFeature } from './parcel-files.ts';
import { joinedCode, recordCode } from './parcel-join.ts';
import { parcelsRepository, type StoredShape } from './parcels.repository.ts';

/*
 * A parcel layer checked against the client's published roll, then stored in one step (or not at all).
 * The key is compared as search compares map/lots (parcel-join.ts), so a layer's `12-3-A` finds the
 * roll's `12.3.a` and `12 - 3/A`, and a condominium unit's `4-23-906` the master parcel `4-23`. Three
 * things keep a town's map from being wiped by accident: a layer that joins no record is refused (a
 * problem naming the file's properties); one that would leave more than 5% fewer records on the map
 * than today's is written only when the provider confirms the loss; and with no property named, the
 * one that joins the most records is read.
 */

/** How many entries each list of the report shows. */
export const REPORT_LIST_LIMIT = 20;

/**
 * A layer that leaves more than this share of the records on today's map without a shape is replaced
 * only when the provider confirms the loss.
 */
export const LOSS_NEEDING_CONFIRMATION = 0.05;

/**
 * The feature property names tried, in this order, when none is named (after the key's own name): the
 * names MassGIS, Vision, Cambridge and most GIS exports give a parcel's map/lot or id. Matched
 * regardless of case.
 */
export const COMMON_KEY_PROPERTIES = ['MAP_PAR_ID', 'MAP_LOT', 'ML', 'PARCEL_ID', 'PID', 'LOC_ID'];
/** The property names tried before the common ones for each key: its own name (and MassGIS's for LocId). */
const KEY_OWN_PROPERTIES: Record<ParcelLayerKey, string[]> = {
  MapLot: ['MapLot'],
  Account: ['Account'],
  LocId: ['LOC_ID', 'LocId'],
};

/** Property names a file's features may have that the report lists and the import tries as keys. */
const MAX_PROPERTIES = 100;

/** A common name that joins this share of the records is taken without trying the file's other names. */
const CLEAR_CHOICE = 0.95;

/** Features farther than this from the middle of the layer are set aside (miles). */
export const FAR_FEATURE_MILES = 100;

export interface ParcelImportOptions {
  clientId: number;
  /** The published roll the layer is joined to for the report (null: none yet). */
  rollId: number | null;
  key: ParcelLayerKey;
  /** The feature property holding the key (default: the one that joins the most records). */
  property?: string;
  fileName: string;
  dryRun: boolean;
  /** Replace today's map even if fewer records would be on it (LOSS_NEEDING_CONFIRMATION). */
  confirmLoss?: boolean;
  /** Runs inside the layer's transaction after it is written (the audit entry). */
  onWrite?: (tx: Executor, layerId: number, shapes: number) => Promise<void>;
}

export interface CountedList {
  count: number;
  /** The first REPORT_LIST_LIMIT entries. */
  first: string[];
}

/** A feature property tried as the key, and how many of the roll's records its values join. */
export interface KeyCandidate {
  property: string;
  recordsJoined: number;
}

/** Today's map beside the one the file would make. */
export interface MapLoss {
  /** The live layer's file. */
  fileName: string;
  recordsOnMapNow: number;
  recordsOnMapAfter: number;
  /** Records that have a shape on today's map and would have none. */
  recordsLosingShape: CountedList;
}

export interface ParcelImportReport {
  /** The feature property read as the key. */
  property: string;
  /** True when no property was named and the import chose it. */
  propertyChosen: boolean;
  /** The next best property tried (null: no other was tried or none joins a record). */
  runnerUp: KeyCandidate | null;
  /** When the property read joins no record: the one of the file's that joins the most (null: none). */
  suggestion: KeyCandidate | null;
  /** The property names the file's features have (the first MAX_PROPERTIES), in the order first met. */
  fileProperties: string[];
  featuresRead: number;
  /** Distinct keys stored (features sharing a key become one shape). */
  shapes: number;
  /** Records that find a shape, their own or their master parcel's. */
  recordsMatched: number;
  /** Records whose map/lot has no shape of its own, on the shape of the parcel they sit on. */
  recordsOnMasterParcel: CountedList;
  recordsWithoutShape: CountedList;
  shapesWithoutRecord: CountedList;
  /** Repairs and oddities that did not stop the import, features set aside included. */
  warnings: CountedList;
  /** What stopped it: nothing was written when there is any. */
  problems: CountedList;
  /** Null when the town has no map yet. */
  loss: MapLoss | null;
  /** The file would leave too many records off the map: replaced only with `confirmLoss`. */
  needsConfirmation: boolean;
  /** The stored layer's id; null when nothing was written (problems, a loss not confirmed, a dry run). */
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

/** A feature's value of a property as key text ('' for none). */
function keyText(f: SourceFeature, property: string): string {
  const raw = f.properties[property];
  return typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
}

/** The property names of the features, in the order first met (at most MAX_PROPERTIES). */
function propertiesOf(features: SourceFeature[]): string[] {
  const names = new Set<string>();
  for (const f of features) {
    for (const name in f.properties) {
      if (!Object.hasOwn(f.properties, name)) continue;
      names.add(name);
      if (names.size >= MAX_PROPERTIES) return [...names];
    }
  }
  return [...names];
}

/** How many records (by their key codes' counts) the property's distinct values join exactly. */
function recordsJoinedBy(features: SourceFeature[], property: string, recordCodes: Map<string, number>) {
  const seen = new Set<string>();
  let joined = 0;
  for (const f of features) {
    const text = keyText(f, property);
    const code = text ? codeKey(text) : '';
    if (!code || seen.has(code)) continue;
    seen.add(code);
    joined += recordCodes.get(code) ?? 0;
  }
  return joined;
}

/**
 * The file's properties tried as the key, best first: the key's own name and the common names first
 * (regardless of case); the rest only when none of those joins nearly every record (CLEAR_CHOICE).
 */
function rankProperties(
  features: SourceFeature[],
  names: string[],
  key: ParcelLayerKey,
  recordCodes: Map<string, number>,
  records: number,
): KeyCandidate[] {
  const priority = [...KEY_OWN_PROPERTIES[key], ...COMMON_KEY_PROPERTIES].map((n) => n.toLowerCase());
  const rank = (name: string) => {
    const i = priority.indexOf(name.toLowerCase());
    return i < 0 ? priority.length : i;
  };
  const ordered = [...names].sort((a, b) => rank(a) - rank(b));
  const common = ordered.filter((n) => rank(n) < priority.length);
  const tried = (list: string[]) =>
    list.map((property) => ({ property, recordsJoined: recordsJoinedBy(features, property, recordCodes) }));
  const best = (list: KeyCandidate[]) =>
    // Stable: of equal joins, the earlier (the more common name) first.
    [...list].sort((a, b) => b.recordsJoined - a.recordsJoined);
  const first = best(tried(common));
  if (first.length > 0 && records > 0 && first[0]!.recordsJoined >= CLEAR_CHOICE * records) return first;
  return best([...first, ...tried(ordered.slice(common.length))]);
}

/** Miles between two longitude/latitude positions (haversine; a far feature is thousands away). */
function milesBetween(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLon = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const n = (x: number) => x.toLocaleString('en-US');

export async function importParcelLayer(
  db: Db,
  features: SourceFeature[],
  options: ParcelImportOptions,
): Promise<ParcelImportReport> {
  const keyField = options.key;
  const fileProperties = propertiesOf(features);

  // Today's map, joined to the same roll below for the loss.
  const live = options.rollId === null ? null : await parcelsRepository.findLayer(db, options.clientId);
  // The roll's records, read once: the choice of property, the join and the loss all compare them.
  const accounts: string[] = [];
  const mapLots: string[] = [];
  const locIds: string[] = [];
  const recordCodes = new Map<string, number>();
  if (options.rollId !== null)
    for await (const batch of parcelsRepository.recordBatches(db, options.rollId, {
      locIds: keyField === 'LocId' || live?.keyField === 'LocId',
    }))
      for (const r of batch) {
        accounts.push(r.account);
        mapLots.push(r.mapLot);
        locIds.push(r.locId);
        const code = recordCode(keyField, r);
        if (code) recordCodes.set(code, (recordCodes.get(code) ?? 0) + 1);
      }
  const records = accounts.length;

  let property = options.property ?? '';
  let runnerUp: KeyCandidate | null = null;
  let ranked: KeyCandidate[] | null = null;
  if (!property) {
    ranked = rankProperties(features, fileProperties, keyField, recordCodes, records);
    property = ranked[0]?.property ?? keyField;
    runnerUp = ranked.find((c, i) => i > 0 && c.recordsJoined > 0) ?? null;
  }

  const warnings = new Counted();
  const problems = new Counted();
  const shapesWithoutRecord = new Counted();
  const byCode = new Map<string, { key: string; shape: MultiPolygon; features: number; name: string }>();
  for (const f of features) {
    const key = keyText(f, property);
    const name = `feature ${f.n}${key ? ` (${property} ${key})` : ''}`;
    const cleaned = f.problem ? { ok: false as const, problem: f.problem } : cleanPolygons(f.geometry);
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
    } else byCode.set(code, { key, shape: cleaned.coordinates, features: 1, name });
  }

  // A feature far from the rest (a stray at 110° E, 0°) would move the town's projection and every
  // distance measured on it: set aside, by name.
  if (byCode.size > 2) {
    const centres = new Map<string, [number, number]>();
    for (const [code, s] of byCode) {
      const [x0, y0, x1, y1] = boundsOf(s.shape);
      centres.set(code, [(x0 + x1) / 2, (y0 + y1) / 2]);
    }
    const middle: [number, number] = [
      median([...centres.values()].map((c) => c[0])),
      median([...centres.values()].map((c) => c[1])),
    ];
    for (const [code, centre] of centres) {
      const miles = milesBetween(middle, centre);
      if (miles <= FAR_FEATURE_MILES) continue;
      warnings.add(
        `${byCode.get(code)!.name} lies ${n(Math.round(miles))} miles from the rest of the layer: set aside`,
      );
      byCode.delete(code);
    }
  }

  // The join, as readers will see it, beside today's map joined to the same roll.
  const liveCodes = live ? new Set(await parcelsRepository.shapeCodes(db, live.id)) : null;
  const recordsWithoutShape = new Counted();
  const recordsOnMasterParcel = new Counted();
  const recordsLosingShape = new Counted();
  const joinedCodes = new Set<string>();
  let recordsMatched = 0;
  let recordsOnMapNow = 0;
  const hasShape = (code: string) => byCode.has(code);
  for (let i = 0; i < records; i++) {
    const r = { account: accounts[i]!, mapLot: mapLots[i]!, locId: locIds[i]! };
    const label =
      keyField === 'Account'
        ? `Account ${r.account}`
        : keyField === 'LocId'
          ? `Account ${r.account} (LOC_ID ${r.locId || 'none'})`
          : `Account ${r.account} (Map/Lot ${r.mapLot || 'none'})`;
    const own = recordCode(keyField, r);
    const joined = joinedCode(hasShape, own, keyField);
    if (joined) {
      recordsMatched++;
      joinedCodes.add(joined);
      if (joined !== own) recordsOnMasterParcel.add(`${label} on parcel ${byCode.get(joined)!.key}`);
    } else recordsWithoutShape.add(label);
    if (live && liveCodes) {
      const before = joinedCode((c) => liveCodes.has(c), recordCode(live.keyField, r), live.keyField);
      if (before) {
        recordsOnMapNow++;
        if (!joined) recordsLosingShape.add(label);
      }
    }
  }
  for (const [code, s] of byCode) if (!joinedCodes.has(code)) shapesWithoutRecord.add(`${property} ${s.key}`);

  // A layer that joins no record would empty the town's map: refused, saying what the file has.
  let suggestion: KeyCandidate | null = null;
  if (records > 0 && recordsMatched === 0) {
    ranked ??= rankProperties(features, fileProperties, keyField, recordCodes, records);
    suggestion = ranked.find((c) => c.property !== property && c.recordsJoined > 0) ?? null;
    const field = PARCEL_LAYER_KEY_LABELS[keyField];
    const has = features.filter((f) => keyText(f, property) !== '').length;
    problems.add(
      `No record's ${field} matches the file: its key was read from the feature property "${property}"` +
        ` (${has ? `on ${n(has)} of ${n(features.length)} features` : 'which no feature has'}). The file's` +
        ` features have ${fileProperties.length ? fileProperties.map((p) => `"${p}"`).join(', ') : 'no properties'}.` +
        (suggestion
          ? ` "${suggestion.property}" matches ${n(suggestion.recordsJoined)} records: use it as the property.`
          : ''),
    );
  }

  const loss: MapLoss | null =
    live && liveCodes
      ? {
          fileName: live.fileName,
          recordsOnMapNow,
          recordsOnMapAfter: recordsMatched,
          recordsLosingShape: recordsLosingShape.toJSON(),
        }
      : null;
  const needsConfirmation =
    loss !== null &&
    loss.recordsOnMapAfter < (1 - LOSS_NEEDING_CONFIRMATION) * loss.recordsOnMapNow &&
    options.confirmLoss !== true;

  let layerId: number | null = null;
  if (problems.count === 0 && !needsConfirmation && !options.dryRun) {
    const shapes: StoredShape[] = [...byCode].map(([code, s]) => ({
      key: s.key,
      keyCode: code,
      coordinates: storedCoordinates(s.shape),
    }));
    layerId = await db.transaction(async (tx) => {
      const id = await parcelsRepository.replaceLayer(
        tx,
        { clientId: options.clientId, keyField, fileName: options.fileName },
        shapes,
      );
      await options.onWrite?.(tx, id, shapes.length);
      return id;
    });
  }
  return {
    property,
    propertyChosen: !options.property,
    runnerUp,
    suggestion,
    fileProperties,
    featuresRead: features.length,
    shapes: byCode.size,
    recordsMatched,
    recordsOnMasterParcel: recordsOnMasterParcel.toJSON(),
    recordsWithoutShape: recordsWithoutShape.toJSON(),
    shapesWithoutRecord: shapesWithoutRecord.toJSON(),
    warnings: warnings.toJSON(),
    problems: problems.toJSON(),
    loss,
    needsConfirmation,
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
  confirmLoss?: boolean;
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
    confirmLoss: input.confirmLoss,
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
  const candidate = (c: KeyCandidate | null) => c && { Property: c.property, RecordsJoined: c.recordsJoined };
  return {
    FileName: input.fileName,
    Key: input.key,
    Property: r.property,
    PropertyChosen: r.propertyChosen,
    RunnerUp: candidate(r.runnerUp),
    Suggestion: candidate(r.suggestion),
    FileProperties: r.fileProperties,
    FeaturesRead: r.featuresRead,
    Shapes: r.shapes,
    RecordsMatched: r.recordsMatched,
    RecordsOnMasterParcel: list(r.recordsOnMasterParcel),
    RecordsWithoutShape: list(r.recordsWithoutShape),
    ShapesWithoutRecord: list(r.shapesWithoutRecord),
    Warnings: list(r.warnings),
    Problems: list(r.problems),
    Loss: r.loss && {
      FileName: r.loss.fileName,
      RecordsOnMapNow: r.loss.recordsOnMapNow,
      RecordsOnMapAfter: r.loss.recordsOnMapAfter,
      RecordsLosingShape: list(r.loss.recordsLosingShape),
    },
    NeedsConfirmation: r.needsConfirmation,
    DryRun: input.dryRun,
    Replaced: r.layerId !== null,
  };
}

/** The report as the command prints it: the key read, counts, then each list's first entries. */
export function formatParcelReport(r: ParcelImportReport): string[] {
  const lines: string[] = [];
  if (r.propertyChosen)
    lines.push(
      `Key property: ${r.property} (chosen: it matches ${n(r.recordsMatched)} records` +
        (r.runnerUp ? `; next best ${r.runnerUp.property}, ${n(r.runnerUp.recordsJoined)} records)` : ')'),
    );
  lines.push(
    `Features read: ${n(r.featuresRead)}`,
    `Parcel shapes: ${n(r.shapes)}`,
    `Records matched: ${n(r.recordsMatched)}`,
  );
  if (r.recordsOnMasterParcel.count)
    lines.push(`Records on the parcel they sit on: ${n(r.recordsOnMasterParcel.count)}`);
  lines.push(
    `Records without a shape: ${n(r.recordsWithoutShape.count)}`,
    `Shapes without a record: ${n(r.shapesWithoutRecord.count)}`,
    `Warnings: ${n(r.warnings.count)}`,
  );
  if (r.problems.count) lines.push(`Problems: ${n(r.problems.count)}`);
  if (r.loss)
    lines.push(
      describeMapLoss({
        FileName: r.loss.fileName,
        RecordsOnMapNow: r.loss.recordsOnMapNow,
        RecordsOnMapAfter: r.loss.recordsOnMapAfter,
      }),
    );
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
  if (r.loss) list('Records that would lose their shape', r.loss.recordsLosingShape);
  list('Records on the parcel they sit on', r.recordsOnMasterParcel);
  list('Records without a shape', r.recordsWithoutShape);
  list('Shapes without a record', r.shapesWithoutRecord);
  return lines;
}
