import { z } from 'zod';
import { IdParam } from './common.ts';
import {
  ABUTTER_DISTANCE_PATTERN,
  ABUTTER_DISTANCE_RULE,
  abutterDistanceFeet,
  DEFAULT_ABUTTER_DISTANCE_FEET,
} from './abutter-distance.ts';
import { AccountText, FullProperty } from './property.ts';

/*
 * Where parcels are (issue 40): a town's parcel layer as GeoJSON, and the abutters of a parcel. The
 * layer belongs to the client; its shapes join the published roll by key when they are read.
 */

/**
 * The record field a layer's shapes are keyed by: the map/lot, the account, or MassGIS's parcel id
 * `LOC_ID`, which the Level 3 assessor table carries on every record (the massgis-l3 format reads it
 * into Reference1), condominium units included, so a MassGIS town's polygons join whole.
 */
export const ParcelLayerKey = z.enum(['MapLot', 'Account', 'LocId']);
export type ParcelLayerKey = z.infer<typeof ParcelLayerKey>;
/** Each key as a clerk reads it (the console's choice, the reports' lines). */
export const PARCEL_LAYER_KEY_LABELS: Record<ParcelLayerKey, string> = {
  MapLot: 'Map/Lot',
  Account: 'Account',
  LocId: 'MassGIS LOC_ID',
};
/** "MapLot, Account or LocId": what a bad key is told. */
export const PARCEL_LAYER_KEY_CHOICES = `${ParcelLayerKey.options.slice(0, -1).join(', ')} or ${ParcelLayerKey.options.at(-1)}`;

/** A box query answers at most this many parcels (flagged `Truncated` when there were more). */
export const MAX_BBOX_FEATURES = 5000;
/** A box wider or taller than this (degrees, about 35 miles of latitude) is refused as too large. */
export const MAX_BBOX_DEGREES = 0.5;

const Position = z.array(z.number()).min(2).max(3);

export const ParcelGeometry = z.union([
  z.object({ type: z.literal('Polygon'), coordinates: z.array(z.array(Position)) }),
  z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(Position))) }),
]);
export type ParcelGeometry = z.infer<typeof ParcelGeometry>;

/** What the public sees of the record a shape belongs to. `Location` is the street address. */
export const ParcelProperties = z.object({
  Account: z.string(),
  MapLot: z.string(),
  Location: z.string(),
});
export type ParcelProperties = z.infer<typeof ParcelProperties>;

export const ParcelFeature = z.object({
  type: z.literal('Feature'),
  geometry: ParcelGeometry,
  properties: ParcelProperties.extend({
    /** How many records of the roll share this shape (condominium units): 1 for most parcels. */
    Records: z.number().int().positive(),
    /**
     * The map/lot of the parcel the record sits on, when its own map/lot has no shape (a condominium
     * unit's `4-23-906` on `4-23`): the record page says "on parcel 4-23". Absent otherwise.
     */
    OnParcel: z.string().optional(),
  }),
});
export type ParcelFeature = z.infer<typeof ParcelFeature>;

export const ParcelCollection = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(ParcelFeature),
  /** True when the box held more than MAX_BBOX_FEATURES parcels and only that many were sent. */
  Truncated: z.boolean(),
});
export type ParcelCollection = z.infer<typeof ParcelCollection>;

export const ParcelParams = z.object({ clientId: IdParam, account: AccountText });
export const ParcelLayerParams = z.object({ clientId: IdParam });

const decimal = /^\s*-?(?:\d+(?:\.\d*)?|\.\d+)\s*$/;

/** `bbox=minLon,minLat,maxLon,maxLat` in degrees (WGS 84). */
export const BboxQuery = z.object({
  bbox: z
    .string({ error: 'is required: minLon,minLat,maxLon,maxLat' })
    .max(200, { message: 'must be at most 200 characters' })
    .transform((s, ctx) => {
      const parts = s.split(',');
      if (parts.length !== 4 || !parts.every((p) => decimal.test(p))) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be four numbers: minLon,minLat,maxLon,maxLat (degrees)',
        });
        return z.NEVER;
      }
      const [minLon, minLat, maxLon, maxLat] = parts.map(Number) as [number, number, number, number];
      const problem =
        minLon < -180 || maxLon > 180 || minLat < -90 || maxLat > 90
          ? 'longitudes must lie between -180 and 180 and latitudes between -90 and 90'
          : minLon >= maxLon || minLat >= maxLat
            ? 'the minimum longitude and latitude must be less than the maximum ones'
            : maxLon - minLon > MAX_BBOX_DEGREES || maxLat - minLat > MAX_BBOX_DEGREES
              ? `the box may be at most ${MAX_BBOX_DEGREES} degrees wide and tall; zoom in`
              : null;
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return { minLon, minLat, maxLon, maxLat };
    }),
});
export type Bbox = z.output<typeof BboxQuery>['bbox'];

export const AbuttersQuery = z.object({
  distance: z
    .string()
    // The pattern also goes into the OpenAPI document; the transform applies the whole rule.
    .regex(ABUTTER_DISTANCE_PATTERN, { message: ABUTTER_DISTANCE_RULE })
    .transform((text, ctx) => {
      const feet = abutterDistanceFeet(text);
      if (feet === null) {
        ctx.addIssue({ code: 'custom', message: ABUTTER_DISTANCE_RULE });
        return z.NEVER;
      }
      return feet;
    })
    .optional()
    .transform((n) => n ?? DEFAULT_ABUTTER_DISTANCE_FEET),
});

/** A yes/no query parameter: 1 (or true) is yes; absent, 0 or false is no. */
const flag = z
  .enum(['0', '1', 'true', 'false'], { message: 'must be 1 or 0' })
  .optional()
  .transform((v) => v === '1' || v === 'true');

/** The labels' choices (LabelChoices in abutters-notice.ts), each off unless given as 1. */
export const AbuttersLabelsQuery = AbuttersQuery.extend({ dedupe: flag, perOwner: flag, occupants: flag });

/** An owner of record and where their mail goes: the full record's Owners entry. */
export const MailingOwner = FullProperty.shape.Owners.element;
export type MailingOwner = z.infer<typeof MailingOwner>;

export const Abutter = ParcelProperties.extend({
  /** Shortest distance between the two shapes, in feet, rounded to the foot (0: touching or shared). */
  DistanceFeet: z.number().int().nonnegative(),
  /** Empty when the owners are withheld (SuppressOwner) or the town has none on record. */
  Owners: z.array(MailingOwner),
  /** Present (true) when the parcel's owners are withheld: "Owner information withheld". */
  SuppressOwner: z.literal(true).optional(),
});
export type Abutter = z.infer<typeof Abutter>;

export const AbuttersResponse = z.object({
  Subject: ParcelProperties,
  DistanceFeet: z.number().int().nonnegative(),
  /** The day the town's parcel map was published on the portal (YYYY-MM-DD, UTC): what "map of" names. */
  MapDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The town (its state as a postal abbreviation where it has one), for "Current Occupant" labels. */
  Town: z.object({ City: z.string(), State: z.string() }),
  Abutters: z.array(Abutter),
});
export type AbuttersResponse = z.infer<typeof AbuttersResponse>;

// ---- A parcel layer uploaded from the provider console (the same import as `portal parcels import`) --

/** A parcel layer file is refused past this size (Cambridge's 13,116 parcels are under 4 MB). */
export const PARCEL_LAYER_MAX_BYTES = 256 * 1024 * 1024;

export const ParcelLayerUploadQuery = z.object({
  key: z
    .enum(ParcelLayerKey.options, { message: `must be ${PARCEL_LAYER_KEY_CHOICES}` })
    .optional()
    .transform((k) => k ?? 'MapLot'),
  property: z
    .string()
    .trim()
    .max(100, { message: 'must be at most 100 characters' })
    .optional()
    .transform((p) => p || undefined),
  dryRun: flag,
  /** Replace today's map even though the file leaves more than 5% fewer records on it. */
  confirmLoss: flag,
});

/** A count and the first entries of one list of the join report. */
export const CountedList = z.object({ Count: z.number().int().nonnegative(), First: z.array(z.string()) });
export type CountedList = z.infer<typeof CountedList>;

/** A feature property tried as the key, and how many of the published roll's records it joins. */
export const KeyCandidate = z.object({
  Property: z.string(),
  RecordsJoined: z.number().int().nonnegative(),
});
export type KeyCandidate = z.infer<typeof KeyCandidate>;

/** The join report of a parcel layer file: what it holds and how it joins the published roll. */
export const ParcelLayerReport = z.object({
  FileName: z.string(),
  Key: ParcelLayerKey,
  /** The feature property read as the key. */
  Property: z.string(),
  /** True when no property was named and the import chose the one joining the most records. */
  PropertyChosen: z.boolean(),
  /** The next best property tried, when one joins any record. */
  RunnerUp: KeyCandidate.nullable(),
  /** When the property read joins no record: the file's property that joins the most (if any does). */
  Suggestion: KeyCandidate.nullable(),
  /** The property names the file's features have (the first 100). */
  FileProperties: z.array(z.string()),
  FeaturesRead: z.number().int().nonnegative(),
  /** Distinct keys (features sharing a key form one parcel). */
  Shapes: z.number().int().nonnegative(),
  /** Records that find a shape: their own, or the parcel they sit on. */
  RecordsMatched: z.number().int().nonnegative(),
  /** Records whose map/lot has no shape of its own, shown on the parcel they sit on (condominium units). */
  RecordsOnMasterParcel: CountedList,
  RecordsWithoutShape: CountedList,
  ShapesWithoutRecord: CountedList,
  /** Repairs that did not stop the import. */
  Warnings: CountedList,
  /** What stops it: a file with any problem changes nothing. */
  Problems: CountedList,
  /** Today's map beside the file's; null when the town has no map yet. */
  Loss: z
    .object({
      /** The file of the live map. */
      FileName: z.string(),
      RecordsOnMapNow: z.number().int().nonnegative(),
      RecordsOnMapAfter: z.number().int().nonnegative(),
      /** Records with a shape on today's map that would have none. */
      RecordsLosingShape: CountedList,
    })
    .nullable(),
  /** The file would leave more than 5% fewer records on the map: it replaces it only with confirmLoss. */
  NeedsConfirmation: z.boolean(),
  DryRun: z.boolean(),
  /** Whether the town's parcel map was replaced by this file. */
  Replaced: z.boolean(),
});
export type ParcelLayerReport = z.infer<typeof ParcelLayerReport>;

/** Today's map beside a file's, in one sentence: the command line and the console say the same. */
export function describeMapLoss(
  loss: Pick<NonNullable<ParcelLayerReport['Loss']>, 'FileName' | 'RecordsOnMapNow' | 'RecordsOnMapAfter'>,
): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const lost = loss.RecordsOnMapNow - loss.RecordsOnMapAfter;
  const share = loss.RecordsOnMapNow ? Math.round((100 * lost) / loss.RecordsOnMapNow) : 0;
  return (
    `Records on the map: ${n(loss.RecordsOnMapNow)} today (${loss.FileName}), ${n(loss.RecordsOnMapAfter)} ` +
    `with this file${lost > 0 ? `: ${n(lost)} fewer (${share}%).` : '.'}`
  );
}

/** A parcel layer as it was loaded: the live one, or an earlier one in the history. */
export const ParcelLayerEntry = z.object({
  FileName: z.string(),
  Key: ParcelLayerKey,
  Shapes: z.number().int().nonnegative(),
  /** When it was loaded (ISO 8601). */
  ImportedAt: z.string(),
  /** Who loaded it (a user name, or `cli:…` for the command line); null when not recorded. */
  ImportedBy: z.string().nullable(),
});
export type ParcelLayerEntry = z.infer<typeof ParcelLayerEntry>;

/** `GET /api/parcel-layers/{clientId}`: the town's live parcel layer and the layers loaded before. */
export const ParcelLayerHistory = z.object({
  /** Null when the town has no parcel map. */
  Live: ParcelLayerEntry.nullable(),
  /** Every layer loaded, newest first (the live one included), at most 50. */
  History: z.array(ParcelLayerEntry),
});
export type ParcelLayerHistory = z.infer<typeof ParcelLayerHistory>;
