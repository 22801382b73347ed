import fs from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  IdParam,
  ImportRunDto,
  ImportRunList,
  ROLL_MAX_BYTES,
  ROLL_MAX_FILES,
  RollFormatList,
  RollPreviewDto,
} from '@opp/contracts';
import { unsupportedMediaType } from '../../errors.ts';
import { requireProvider } from '../../plugins/auth.ts';
import { auditActorOf } from '../audit/audit.service.ts';
import { openUpload, RollPublisher, rollPublishingService } from './roll-publishing.service.ts';
import { MAX_SIZE_TEXT, receiveRollUpload } from './roll-upload.ts';

const secured = { tags: ['Roll publishing'], security: [{ bearerAuth: [] }] };
const denied = { 401: ErrorBody, 403: ErrorBody };
/** Checked before anything is read: a stranger cannot make the server receive a file. */
const providerOnly = { onRequest: async (request: FastifyRequest) => void requireProvider(request) };
const ClientParams = z.object({ clientId: IdParam });

const UPLOAD_PARTS =
  `Multipart parts: \`file\` (the roll, at most ${MAX_SIZE_TEXT}; with a format or a mapping, up to ` +
  `${ROLL_MAX_FILES} files of one export, CSV or TSV, joined by their key), and optionally \`format\` ` +
  '(a name from GET /api/roll-formats) or `mapping` (a mapping file, docs/import-format.md "Mappings"). ' +
  'Without either, the one file is JSON Lines (.jsonl, .ndjson) or CSV (.csv) in the import format. ' +
  'An unknown format, a mapping that cannot be used or a column it needs and does not find is a 400 ' +
  'naming it. Publishing also takes `records`: the record count of the preview being confirmed, which ' +
  'the run keeps as `ExpectedRecords` so that its progress is a count of a known total from the start.';

/**
 * Publishing a roll from the provider console: the built-in formats, a preview of an upload (nothing
 * written), and the upload that publishes, stored to a temporary folder and imported in the background.
 * What the files mean and how they are checked is the import service's (imports/roll-import.service.ts),
 * the same one `portal import` uses.
 */
export const rollPublishingRoutes: FastifyPluginAsyncZod = async (app) => {
  // Another feature may already have registered the multipart parser further up; each upload passes
  // its own limits either way (roll-upload.ts).
  if (!app.hasContentTypeParser('multipart/form-data'))
    await app.register(multipart, { limits: { fileSize: ROLL_MAX_BYTES, files: ROLL_MAX_FILES + 1 } });

  const retireAfterMs = app.config.rollRetireSeconds * 1000;
  const publisher = new RollPublisher(app.database.db, app.log, {
    engine: app.database.engine,
    retireAfterMs,
  });
  app.addHook('onClose', async () => publisher.close());

  app.get(
    '/roll-formats',
    {
      ...providerOnly,
      schema: {
        ...secured,
        summary: "The built-in source formats a roll can be read as (a town's own export)",
        response: { 200: RollFormatList, ...denied },
      },
    },
    async () => rollPublishingService.formats(),
  );

  app.post(
    '/rolls/:clientId/preview',
    {
      ...providerOnly,
      schema: {
        ...secured,
        summary: 'Preview a roll upload: what publishing it would do, nothing written (multipart)',
        description:
          `${UPLOAD_PARTS} Maps and checks every record exactly as publishing does and answers the ` +
          "record count, each portal field's fill rate, the columns no mapping reads, the first " +
          'records as mapped and the problems by line. Nothing is kept: publish by sending the same ' +
          'parts to POST /api/rolls/{clientId}.',
        consumes: ['multipart/form-data'],
        params: ClientParams,
        response: {
          200: RollPreviewDto,
          400: ErrorBody,
          ...denied,
          404: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
        },
      },
    },
    async (request) => {
      requireProvider(request);
      const upload = await receiveRollUpload(request);
      try {
        return await rollPublishingService.preview(app.database.db, request.params.clientId, upload);
      } finally {
        await fs.rm(upload.folder, { recursive: true, force: true });
      }
    },
  );

  app.post(
    '/rolls/:clientId',
    {
      ...providerOnly,
      schema: {
        ...secured,
        summary: "Publish a client's roll (multipart upload, field `file`)",
        description:
          `${UPLOAD_PARTS} Answers 202 with the new run at once; the server then checks every ` +
          'record (a file with any error changes nothing; the run lists the problems by line) and imports ' +
          "it in the background, replacing the client's roll in one step. Poll the run for progress. " +
          '409 while another import for the client runs.',
        consumes: ['multipart/form-data'],
        params: ClientParams,
        response: {
          202: ImportRunDto,
          400: ErrorBody,
          ...denied,
          404: ErrorBody,
          409: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const user = requireProvider(request);
      const { clientId } = request.params;
      if (!request.isMultipart())
        throw unsupportedMediaType('Send the roll as multipart/form-data with the file in the "file" field');
      // Refuse before receiving what may be a very large file.
      await publisher.assertCanStart(clientId);
      const upload = await receiveRollUpload(request);
      try {
        const roll = await openUpload(upload);
        const run = await publisher.start({
          clientId,
          userId: user.id,
          actor: user.username,
          roll,
          folder: upload.folder,
          // A mapped export is read whole when opened: only a roll file's reading reports bytes.
          fileBytes: roll.mapped ? null : upload.bytes,
          expectedRecords: upload.expectedRecords,
          audit: auditActorOf(request),
        });
        return reply.status(202).send(run);
      } catch (err) {
        await fs.rm(upload.folder, { recursive: true, force: true });
        throw err;
      }
    },
  );

  app.get(
    '/rolls/:clientId',
    {
      ...providerOnly,
      schema: {
        ...secured,
        summary: "A client's publishing history, newest first (who, when, file, counts, outcome)",
        params: ClientParams,
        response: { 200: ImportRunList, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) => rollPublishingService.history(app.database.db, request.params.clientId, retireAfterMs),
  );

  app.get(
    '/rolls/:clientId/runs/:runId',
    {
      ...providerOnly,
      schema: {
        ...secured,
        summary: 'One import run: status, records checked or written, and the problems found by line',
        params: ClientParams.extend({ runId: IdParam }),
        response: { 200: ImportRunDto, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) =>
      rollPublishingService.getRun(
        app.database.db,
        request.params.clientId,
        request.params.runId,
        retireAfterMs,
      ),
  );
};
