import { sql } from 'drizzle-orm';
import type { ParcelLayerKey } from '@opp/contracts';
import { queryRows, type Executor } from '../../db/database.ts';
import { unpackRecordValue } from '../properties/record-codec.ts';

export interface ParcelLayerRow {
  id: number;
  keyField: ParcelLayerKey;
  fileName: string;
  shapeCount: number;
  importedAt: Date;
}

export interface StoredShape {
  key: string;
  keyCode: string;
  /** MultiPolygon coordinates as JSON text. */
  coordinates: string;
}

/** What a parcel's map and abutters list show of its record (from the roll's search summary). */
export interface ParcelRecordRow {
  account: string;
  mapLot: string;
  /** The record's MassGIS LOC_ID (its Reference1), read only for a layer keyed by it ('' otherwise). */
  locId: string;
  streetNumber: string;
  apartment: string;
  streetName: string;
}

const INSERT_BATCH = 500;
/** Rows read a statement when a layer is joined to a roll (a county's are read in parts, not held twice). */
const SHAPE_BATCH = 20_000;
const RECORD_BATCH = 50_000;

/** A PostgreSQL array literal of texts (one parameter, whatever the count). */
const textArray = (values: string[]) =>
  `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

export const parcelsRepository = {
  async findLayer(db: Executor, clientId: number): Promise<ParcelLayerRow | null> {
    const rows = await queryRows<ParcelLayerRow>(
      db,
      sql`select id, key_field as "keyField", file_name as "fileName", shape_count as "shapeCount",
                 imported_at as "importedAt"
            from parcel_layers where client_id = ${clientId}`,
    );
    return rows[0] ?? null;
  },

  /** The client's layer replaced by these shapes (call inside a transaction). Returns the new layer's id. */
  async replaceLayer(
    tx: Executor,
    layer: { clientId: number; keyField: ParcelLayerKey; fileName: string },
    shapes: StoredShape[],
  ): Promise<number> {
    await tx.execute(sql`delete from parcel_layers where client_id = ${layer.clientId}`);
    const [created] = await queryRows<{ id: number }>(
      tx,
      sql`insert into parcel_layers (client_id, key_field, file_name, shape_count)
          values (${layer.clientId}, ${layer.keyField}, ${layer.fileName}, ${shapes.length}) returning id`,
    );
    const layerId = created!.id;
    for (let i = 0; i < shapes.length; i += INSERT_BATCH) {
      const values = shapes
        .slice(i, i + INSERT_BATCH)
        .map((s, j) => sql`(${layerId}, ${i + j}, ${s.key}, ${s.keyCode}, ${s.coordinates})`);
      await tx.execute(
        sql`insert into parcel_shapes (layer_id, shape_no, key, key_code, coordinates) values ${sql.join(values, sql`, `)}`,
      );
    }
    // The planner's counts of a table that just grew by a county's layer were zero: it sorted the whole
    // layer for each batch the index reads (shapeBatches) instead of walking the key (PGlite has no
    // autovacuum to do this later).
    await tx.execute(sql`analyze parcel_shapes`);
    return layerId;
  },

  /** The clients whose layers have more than `minShapes` shapes, largest first. */
  async layersLargerThan(db: Executor, minShapes: number): Promise<number[]> {
    const rows = await queryRows<{ clientId: number }>(
      db,
      sql`select client_id as "clientId" from parcel_layers where shape_count > ${minShapes}
           order by shape_count desc`,
    );
    return rows.map((r) => r.clientId);
  },

  async deleteLayer(db: Executor, clientId: number): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`delete from parcel_layers where client_id = ${clientId} returning id`,
    );
    return rows.length > 0;
  },

  /** The key codes of a layer's shapes (what records join, without their coordinates). */
  async shapeCodes(db: Executor, layerId: number): Promise<string[]> {
    const rows = await queryRows<{ code: string }>(
      db,
      sql`select key_code as code from parcel_shapes where layer_id = ${layerId}`,
    );
    return rows.map((r) => r.code);
  },

  /** The layer's shapes in order, a batch at a time. */
  async *shapeBatches(db: Executor, layerId: number, size = SHAPE_BATCH): AsyncGenerator<StoredShape[]> {
    for (let after = -1; ;) {
      const rows = await queryRows<StoredShape & { no: number }>(
        db,
        sql`select shape_no as "no", key, key_code as "keyCode", coordinates from parcel_shapes
             where layer_id = ${layerId} and shape_no > ${after} order by shape_no limit ${size}`,
      );
      if (rows.length > 0) yield rows;
      if (rows.length < size) return;
      after = rows[rows.length - 1]!.no;
    }
  },

  /**
   * Every record of a roll with the fields a parcel's label needs, in account order, a batch at a time;
   * with `locIds`, each record's LOC_ID too, which only its full record holds (a layer keyed by it).
   */
  async *recordBatches(
    db: Executor,
    rollId: number,
    { size = RECORD_BATCH, locIds = false }: { size?: number; locIds?: boolean } = {},
  ): AsyncGenerator<ParcelRecordRow[]> {
    for (let after: string | null = null; ;) {
      const rows: ParcelRecordRow[] = await queryRows<ParcelRecordRow>(
        db,
        sql`select account,
                   coalesce(summary->>'MapLot', '') as "mapLot",
                   coalesce(summary->>'StreetNumber', '') as "streetNumber",
                   coalesce(summary->>'Apartment', '') as "apartment",
                   coalesce(summary->>'StreetName', '') as "streetName",
                   '' as "locId"
              from properties
             where roll_id = ${rollId} ${after === null ? sql`` : sql`and account > ${after}`}
             order by account limit ${size}`,
      );
      if (locIds && rows.length > 0) {
        const records = await this.findRecords(
          db,
          rollId,
          rows.map((r) => r.account),
        );
        for (const r of rows) {
          const reference = records.get(r.account)?.Reference1 as { UserDefinedValue?: string } | null;
          r.locId = reference?.UserDefinedValue?.trim() ?? '';
        }
      }
      if (rows.length > 0) yield rows;
      if (rows.length < size) return;
      after = rows[rows.length - 1]!.account;
    }
  },

  /** The full records of some accounts of a roll, by account. */
  async findRecords(
    db: Executor,
    rollId: number,
    accounts: string[],
  ): Promise<Map<string, Record<string, unknown>>> {
    const out = new Map<string, Record<string, unknown>>();
    if (accounts.length === 0) return out;
    // One primary-key probe per account in each table: joining the two made the planner read every
    // record of the roll.
    const rows = await queryRows<{ account: string; record: string }>(
      db,
      sql`select account, record from property_records
           where roll_id = ${rollId} and account = any(${textArray(accounts)}::text[])`,
    );
    for (const row of rows) out.set(row.account, unpackRecordValue(row.record));
    const legacy = accounts.filter((a) => !out.has(a));
    if (legacy.length > 0) {
      // A roll imported before migration 0009 holds its records in `properties.record`.
      const old = await queryRows<{ account: string; record: string }>(
        db,
        sql`select account, record from properties
             where roll_id = ${rollId} and account = any(${textArray(legacy)}::text[]) and record is not null`,
      );
      for (const row of old) out.set(row.account, unpackRecordValue(row.record));
    }
    return out;
  },
};
