import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AbuttersLabelsQuery,
  AbuttersQuery,
  AbuttersResponse,
  BboxQuery,
  DEFAULT_ABUTTER_DISTANCE_FEET,
  ErrorBody,
  MAX_ABUTTER_DISTANCE_FEET,
  MAX_BBOX_DEGREES,
  MAX_BBOX_FEATURES,
  ParcelCollection,
  ParcelFeature,
  PARCEL_LAYER_MAX_BYTES,
  ParcelLayerHistory,
  ParcelLayerParams,
  ParcelLayerReport,
  ParcelLayerUploadQuery,
  ParcelParams,
} from '@opp/contracts';
import { payloadTooLarge, unsupportedMediaType, validationFailed } from '../../errors.ts';
import { requireProvider } from '../../plugins/auth.ts';
import { auditActorOf } from '../audit/audit.service.ts';
import { abuttersCsv, abuttersFileName, abuttersLabelsPdf } from './abutters-export.ts';
import { ParcelFileError } from './parcel-files.ts';
import { importParcelFile, parcelLayerReportDto } from './parcel-import.ts';
import { compiledResponses } from '../../lib/response-serializer.ts';
import { parcelLayersService } from './parcel-layers.service.ts';

const tags = ['Public'];

const DISTANCE_METHOD =
  'Distances are the shortest distance between the two parcel shapes, computed in feet (international ' +
  'foot, 0.3048 m) on a transverse Mercator projection of the GRS 80 ellipsoid centred on the middle of ' +
  "the town's parcel layer, with scale 1 on its central meridian. Within a town its scale differs from 1 " +
  'by less than a part in a million, so the distances agree with geodesic (ellipsoidal) distances to well ' +
  'under a foot; they are rounded to the nearest foot, and a parcel is within `distance` when its rounded ' +
  'distance is. Touching parcels (a shared boundary or corner) are at 0 ft.';

const ABUTTERS_DESCRIPTION =
  `The records whose parcel shape lies within \`distance\` feet (0 to ${MAX_ABUTTER_DISTANCE_FEET}, default ` +
  `${DEFAULT_ABUTTER_DISTANCE_FEET}; 0 means touching) of the shape of \`account\` in the town's published ` +
  'roll. The subject itself is left out; other records on the same shape (condominium units) are listed at ' +
  '0 ft. Each entry gives the account, map/lot, location, owners of record with their mailing addresses, and ' +
  'the distance in feet; sorted by distance, then map/lot. 404 when the town has no parcel map or the ' +
  `account has no shape on it. ${DISTANCE_METHOD}`;

/** The map's own budget, weighted by the size of each answer (plugins/rate-limit.ts). */
const mapBudget = { rateLimit: 'map' } as const;
/** The map's answers are large: serialized by code compiled from their schemas (lib/response-serializer.ts). */
const mapAnswers = { config: mapBudget, serializerCompiler: compiledResponses } as const;

/** The public map and abutters calls (issue 40). */
export const parcelsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const parcelsService = app.parcels;

  app.get(
    '/parcels/:clientId/:account',
    {
      ...mapAnswers,
      schema: {
        tags,
        summary: "A parcel's shape",
        description:
          "The shape of `account`'s parcel on the town's parcel map, as a GeoJSON Feature (longitude, " +
          'latitude; WGS 84) whose properties name the record (`Records`: how many records share the ' +
          'shape, e.g. condominium units). 404 when the town has no parcel map or the account no shape.',
        params: ParcelParams,
        response: { 200: ParcelFeature, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => parcelsService.parcel(db, request.params.clientId, request.params.account),
  );

  app.get(
    '/parcels/:clientId',
    {
      ...mapAnswers,
      schema: {
        tags,
        summary: 'The parcels in a map box',
        description:
          'The parcels whose shapes meet the box `bbox=minLon,minLat,maxLon,maxLat` (degrees, WGS 84; at ' +
          `most ${MAX_BBOX_DEGREES}° wide and tall), as a GeoJSON FeatureCollection, one Feature per shape ` +
          'named by its first record by map/lot. Shapes are simplified to the box’s scale (details under ' +
          `a thousandth of the box are dropped). At most ${MAX_BBOX_FEATURES} features; \`Truncated\` is ` +
          'true when the box held more. 400 for a malformed or too large box; 404 when the town has no ' +
          'parcel map.',
        params: ParcelLayerParams,
        querystring: BboxQuery,
        response: { 200: ParcelCollection, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => parcelsService.inBox(db, request.params.clientId, request.query.bbox),
  );

  app.get(
    '/abutters/:clientId/:account',
    {
      ...mapAnswers,
      schema: {
        tags,
        summary: "A parcel's abutters",
        description: ABUTTERS_DESCRIPTION,
        params: ParcelParams,
        querystring: AbuttersQuery,
        response: { 200: AbuttersResponse, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      parcelsService.abutters(db, request.params.clientId, request.params.account, request.query.distance),
  );

  app.get(
    '/abutters/:clientId/:account/abutters.csv',
    {
      config: { rateLimit: 'export' },
      schema: {
        tags,
        summary: "A parcel's abutters as CSV",
        description:
          'The list of GET /api/abutters/{clientId}/{account} as CSV, UTF-8 with a byte-order mark: a line ' +
          'naming the subject parcel (location and map/lot) and the distance, a line saying how it was ' +
          'measured (from the parcel’s boundary, on the town’s parcel map of its date; a reference, not a ' +
          'survey), a blank line, the header row, then one row per owner (mailing name and address) and ' +
          'one row for a record with no owner on the roll or whose owners are withheld: every record is ' +
          'listed. The file name names the distance and the subject. Every text cell is quoted; one that ' +
          'a spreadsheet could run as a formula starts with an apostrophe.',
        produces: ['text/csv'],
        params: ParcelParams,
        querystring: AbuttersQuery,
        response: { 200: z.string().describe('text/csv'), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { clientId, account } = request.params;
      const list = await parcelsService.abutters(db, clientId, account, request.query.distance);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${abuttersFileName(list, 'csv')}"`)
        .send(abuttersCsv(list));
    },
  );

  app.get(
    '/abutters/:clientId/:account/abutters.pdf',
    {
      config: { rateLimit: 'export' },
      schema: {
        tags,
        summary: "A parcel's abutters as mailing labels",
        description:
          'Mailing labels for the owners of GET /api/abutters/{clientId}/{account}, as a PDF for Avery ' +
          '5160 / 8160 sheets (US Letter, 30 labels a page in 3 columns of 10, 2⅝″ × 1″), in the list’s ' +
          'order, below cover lines (in the sheet’s top margin) naming the subject, the distance, how it ' +
          'was measured and how many labels of each kind there are. Co-owners of a parcel at one mailing ' +
          'address share one label naming each of them; `perOwner=1` prints one per owner. `dedupe=1` ' +
          'merges labels with the same names and mailing address into one that lists their parcels. ' +
          '`occupants=1` adds a label to "Current Occupant" at the parcel’s location for each record with ' +
          'no mailing address on the roll.',
        produces: ['application/pdf'],
        params: ParcelParams,
        querystring: AbuttersLabelsQuery,
        response: { 200: z.string().describe('application/pdf'), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { clientId, account } = request.params;
      const { distance, ...choices } = request.query;
      const list = await parcelsService.abutters(db, clientId, account, distance);
      const pdf = await abuttersLabelsPdf(list, choices);
      return (
        reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${abuttersFileName(list, 'pdf')}"`)
          // Bytes bypass the serializer; the 200 schema above documents what they are.
          .send(Buffer.from(pdf) as unknown as string)
      );
    },
  );
};

/** Checked before anything is read: a stranger cannot make the server receive a file. */
const providerOnly = { onRequest: async (request: FastifyRequest) => void requireProvider(request) };
const maxLayerSize = `${PARCEL_LAYER_MAX_BYTES / 1024 ** 2} MB`;

/** The name the report and the audit log show: no folders, no control characters, bounded. */
const displayName = (raw: string) =>
  [...(path.basename(raw.replace(/\\/g, '/')) || 'parcels')]
    .filter((ch) => ch >= ' ' && ch !== '\u007f')
    .join('')
    .slice(0, 200);

/** Replacing a town's parcel layer from the provider console (issue 40). */
export const parcelLayerRoutes: FastifyPluginAsyncZod = async (app) => {
  // Another feature may already have registered the multipart parser further up; the call below passes
  // its own limits either way.
  if (!app.hasContentTypeParser('multipart/form-data'))
    await app.register(multipart, { limits: { fileSize: PARCEL_LAYER_MAX_BYTES, files: 1 } });
  const db = app.database.db;

  app.get(
    '/parcel-layers/:clientId',
    {
      ...providerOnly,
      schema: {
        tags: ['Parcel layers'],
        security: [{ bearerAuth: [] }],
        summary: "A town's live parcel layer and the layers loaded before",
        description:
          'The live layer (file, key, shapes, when and by whom it was loaded; null when the town has no ' +
          'parcel map) and every layer loaded, newest first (at most 50).',
        params: ParcelLayerParams,
        response: { 200: ParcelLayerHistory, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => parcelLayersService.history(db, requireProvider(request), request.params.clientId),
  );

  app.post(
    '/parcels/:clientId',
    {
      ...providerOnly,
      schema: {
        tags: ['Parcel layers'],
        security: [{ bearerAuth: [] }],
        summary: "Replace a town's parcel map (multipart upload, field `file`)",
        description:
          `A GeoJSON FeatureCollection, a TopoJSON file or a zipped Shapefile (with its .prj) of at most ` +
          `${maxLayerSize}, as \`portal parcels import\` reads it. \`key\` names the record field the shapes ` +
          'are keyed by (MapLot, the default, or Account) and `property` the feature property holding it ' +
          '(default: the one that joins the most records, reported with the runner-up); keys match the ' +
          'records the way search matches map/lots, and a record whose map/lot has no shape sits on the ' +
          'parcel of its longest map/lot prefix that has one. Answers the join report: features read, ' +
          'records matched, records without a shape, shapes without a record, repairs (warnings), problems ' +
          "and today's map beside the file's (`Loss`). `dryRun=1` answers the report (200, problems " +
          "included) and changes nothing; otherwise the file replaces the town's parcel map in one step. " +
          'A file with any problem (a file that matches no record is one) changes nothing and is answered ' +
          '422 with the report; a file that would leave more than 5% fewer records on the map changes ' +
          'nothing and is answered 409 with the report unless `confirmLoss=1`.',
        consumes: ['multipart/form-data'],
        params: ParcelLayerParams,
        querystring: ParcelLayerUploadQuery,
        response: {
          200: ParcelLayerReport,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          413: ErrorBody,
          409: ParcelLayerReport,
          415: ErrorBody,
          422: ParcelLayerReport,
        },
      },
    },
    async (request, reply) => {
      requireProvider(request);
      const { clientId } = request.params;
      const { key, property, dryRun, confirmLoss } = request.query;
      if (!request.isMultipart())
        throw unsupportedMediaType(
          'Send the parcel map as multipart/form-data with the file in the "file" field',
        );

      const part = await request.file({ limits: { fileSize: PARCEL_LAYER_MAX_BYTES, files: 1, fields: 10 } });
      if (!part) throw validationFailed('file', 'Choose a parcel map file to upload.');
      const fileName = displayName(part.filename);
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opp-parcels-'));
      try {
        const filePath = path.join(dir, 'layer');
        await pipeline(part.file, createWriteStream(filePath));
        if (part.file.truncated) throw payloadTooLarge(`The parcel map file is larger than ${maxLayerSize}.`);
        const audit = auditActorOf(request);
        const input = { clientId, filePath, fileName, key, property, dryRun, confirmLoss, audit };
        const report = await importParcelFile(db, input);
        // A dry run asks what the file would do, problems and loss included: its report is the answer.
        const status = dryRun ? 200 : report.problems.count > 0 ? 422 : report.needsConfirmation ? 409 : 200;
        return reply.status(status).send(parcelLayerReportDto(report, input));
      } catch (err) {
        if (err instanceof ParcelFileError) throw validationFailed('file', err.message);
        if (err instanceof app.multipartErrors.RequestFileTooLargeError)
          throw payloadTooLarge(`The parcel map file is larger than ${maxLayerSize}.`);
        throw err;
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
  );
};
