import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, IdParam, ImportRunDto, ImportRunList, ROLL_MAX_BYTES } from '@opp/contracts';
import { payloadTooLarge, unsupportedMediaType, validationFailed } from '../../errors.ts';
import { requireProvider } from '../../plugins/auth.ts';
import { auditActorOf } from '../audit/audit.service.ts';
import { recordSourceFor, rollFormatOf } from '../imports/record-sources.ts';
import { RollPublisher, rollPublishingService } from './roll-publishing.service.ts';

const secured = { tags: ['Roll publishing'], security: [{ bearerAuth: [] }] };
const denied = { 401: ErrorBody, 403: ErrorBody };
/** Checked before anything is read: a stranger cannot make the server receive a file. */
const providerOnly = { onRequest: async (request: FastifyRequest) => void requireProvider(request) };
const ClientParams = z.object({ clientId: IdParam });
const GIB = 1024 * 1024 * 1024;
const maxSize = ROLL_MAX_BYTES >= GIB ? `${ROLL_MAX_BYTES / GIB} GiB` : `${ROLL_MAX_BYTES / 1024 ** 2} MiB`;

/** The name people see in the history: no folders, no control characters, bounded. */
const displayName = (raw: string) =>
  [...(path.basename(raw.replace(/\\/g, '/')) || 'roll')]
    .filter((ch) => ch >= ' ' && ch !== '\u007f')
    .join('')
    .slice(0, 200);

/**
 * Publishing a roll from the provider console. The upload is stored to a temporary file, then validated
 * and imported in the background (the response does not wait), one import per client at a time.
 */
export const rollPublishingRoutes: FastifyPluginAsyncZod = async (app) => {
  // Another feature may already have registered the multipart parser further up; each call below passes
  // its own limits either way.
  if (!app.hasContentTypeParser('multipart/form-data'))
    await app.register(multipart, { limits: { fileSize: ROLL_MAX_BYTES, files: 1 } });

  const retireAfterMs = app.config.rollRetireSeconds * 1000;
  const publisher = new RollPublisher(
    app.database.db,
    app.log,
    (filePath, fileName, options) => recordSourceFor(filePath, fileName, options),
    { engine: app.database.engine, retireAfterMs },
  );
  app.addHook('onClose', async () => publisher.close());

  app.post(
    '/rolls/:clientId',
    {
      ...providerOnly,
      schema: {
        ...secured,
        summary: "Publish a client's roll (multipart upload, field `file`)",
        description:
          `A JSON Lines (.jsonl, .ndjson) or CSV (.csv) file of at most ${maxSize}, in the import format ` +
          '(docs/import-format.md). Answers 202 with the new run at once; the server then checks every ' +
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

      const part = await request.file({ limits: { fileSize: ROLL_MAX_BYTES, files: 1, fields: 10 } });
      if (!part) throw validationFailed('file', 'Choose a roll file to publish.');
      const fileName = displayName(part.filename);
      const format = rollFormatOf(fileName);
      if (!format) {
        part.file.resume();
        throw validationFailed('file', 'The roll must be a JSON Lines (.jsonl) or CSV (.csv) file.');
      }

      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opp-roll-'));
      const filePath = path.join(dir, `roll.${format}`);
      try {
        await pipeline(part.file, createWriteStream(filePath));
        if (part.file.truncated) throw payloadTooLarge(`The roll file is larger than ${maxSize}.`);
        const run = await publisher.start({
          clientId,
          userId: user.id,
          actor: user.username,
          fileName,
          filePath,
          audit: auditActorOf(request),
        });
        return reply.status(202).send(run);
      } catch (err) {
        await fs.rm(dir, { recursive: true, force: true });
        if (err instanceof app.multipartErrors.RequestFileTooLargeError)
          throw payloadTooLarge(`The roll file is larger than ${maxSize}.`);
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
