import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  IdParam,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_PIXELS,
  IMAGE_WIDTHS,
  ImageUploadResponse,
  OkResponse,
  STORED_IMAGE_NAME,
} from '@opp/contracts';
import {
  AppError,
  badRequest,
  payloadTooLarge,
  unsupportedMediaType,
  validationFailed,
} from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { auditActorOf } from '../audit/audit.service.ts';
import { bannersService } from './files.service.ts';
import { processImage, STORED_MAX_BYTES, STORED_MAX_WIDTH } from './image-processing.ts';

const secured = { tags: ['Images'], security: [{ bearerAuth: [] }] };
const denied = { 401: ErrorBody, 403: ErrorBody };
const signedIn = { onRequest: async (request: FastifyRequest) => void requireUser(request) };
/** Each upload is decoded and re-encoded: a user's uploads spend a budget of their own (plugins/rate-limit). */
const uploading = { ...signedIn, config: { rateLimit: 'upload' as const } };
const uploadErrors = { 400: ErrorBody, ...denied, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody };

const MAX_MB = IMAGE_MAX_BYTES / (1024 * 1024);
const UPLOAD_RULES =
  `multipart/form-data with one \`file\` part (at most ${MAX_MB} MB, ${IMAGE_MAX_PIXELS / 1_000_000} ` +
  'megapixels), a `ClientID` field and an optional `fileType` field (informational only). The type is ' +
  'read from the bytes, never from the name or the declared type: only PNG and JPEG are accepted (415 ' +
  'otherwise). The image is re-encoded, which strips all metadata (EXIF, GPS, comments) and trailing ' +
  `bytes. An image wider than ${STORED_MAX_WIDTH} pixels is scaled down to that width, and the stored ` +
  `image weighs at most ${STORED_MAX_BYTES / 1024 / 1024} MB (lower quality, then fewer pixels). At most ` +
  'a few uploads a minute per account (429 with Retry-After). The client’s BannerImage becomes the new ' +
  'file and its previous banner file is deleted.';

/** Banner names in paths: what this feature issues (anything else cannot exist, so it is a 404). */
const BannerName = z.string().max(100);
/** Names served publicly: banners and any other stored image (plain file names, no paths). */
const FileName = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'is not a file name' });

interface Upload {
  file: Buffer | null;
  fields: Record<string, string>;
}

/**
 * Reads the multipart body within the limits. Every way a body can be wrong (too big, too many
 * parts, truncated fields, not multipart at all, malformed) becomes a 4xx, never a 500.
 */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) throw unsupportedMediaType('Send the image as multipart/form-data');
  const upload: Upload = { file: null, fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw validationFailed(part.fieldname, 'unexpected file; send the image as the "file" part');
        }
        upload.file = await part.toBuffer();
      } else {
        if (part.fieldnameTruncated || part.valueTruncated)
          throw validationFailed(part.fieldname, 'is too long');
        upload.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; statusCode?: number };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge(`The image must be at most ${MAX_MB} MB`);
    if (e.code === 'FST_FILES_LIMIT') throw payloadTooLarge('Send one image at a time');
    if (e.statusCode === 413) throw payloadTooLarge('The upload has too many parts');
    if (e.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw unsupportedMediaType('Send the image as multipart/form-data');
    throw badRequest('The upload is not a valid multipart/form-data body');
  }
  return upload;
}

function uploadedImage(upload: Upload): Buffer {
  if (!upload.file) throw validationFailed('file', 'choose a PNG or JPEG image to upload');
  return upload.file;
}

function uploadClientId(upload: Upload): number {
  const parsed = IdParam.safeParse(upload.fields.ClientID ?? '');
  if (!parsed.success) throw validationFailed('ClientID', 'must be the id of a municipality');
  return parsed.data;
}

/** Banner upload, replace and delete (spec §4 "Banner save"), and public image serving. */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here only: no other route accepts multipart bodies.
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: {
      fileSize: IMAGE_MAX_BYTES,
      files: 1,
      fields: 5,
      fieldNameSize: 100,
      fieldSize: 200,
      parts: 6,
      headerPairs: 50,
    },
  });

  app.post(
    '/image',
    {
      ...uploading,
      schema: {
        ...secured,
        summary: 'Upload a municipality’s banner',
        description: UPLOAD_RULES,
        consumes: ['multipart/form-data'],
        response: { 201: ImageUploadResponse, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const actor = requireUser(request);
      const upload = await readUpload(request);
      const clientId = uploadClientId(upload);
      await bannersService.authorizeUpload(app.database.db, actor, clientId);
      const image = await processImage(uploadedImage(upload));
      const saved = await bannersService.create(app.database.db, clientId, image, auditActorOf(request));
      return reply.status(201).send(saved);
    },
  );

  app.patch(
    '/image/:bannerFile',
    {
      ...uploading,
      schema: {
        ...secured,
        summary: 'Replace a municipality’s banner with a new upload',
        description: `${UPLOAD_RULES} The new file gets a new name; the old one is deleted.`,
        consumes: ['multipart/form-data'],
        params: z.object({ bannerFile: BannerName }),
        response: { 200: ImageUploadResponse, ...uploadErrors },
      },
    },
    async (request) => {
      const actor = requireUser(request);
      const { bannerFile } = request.params;
      if (!STORED_IMAGE_NAME.test(bannerFile)) throw new AppError(404, 'not_found', 'No such image');
      // Authorized before the upload is read: a stranger's 5 MB is never decoded.
      const old = await bannersService.authorizeExisting(app.database.db, actor, bannerFile);
      const upload = await readUpload(request);
      const clientId = uploadClientId(upload);
      await bannersService.authorizeUpload(app.database.db, actor, clientId);
      const image = await processImage(uploadedImage(upload));
      return bannersService.replace(app.database.db, old, clientId, image, auditActorOf(request));
    },
  );

  app.delete(
    '/image/:bannerFile',
    {
      ...signedIn,
      schema: {
        ...secured,
        summary: 'Delete a municipality’s banner (the client then shows none)',
        params: z.object({ bannerFile: BannerName }),
        response: { 200: OkResponse, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) => {
      const actor = requireUser(request);
      const { bannerFile } = request.params;
      if (!STORED_IMAGE_NAME.test(bannerFile)) throw new AppError(404, 'not_found', 'No such image');
      const file = await bannersService.authorizeExisting(app.database.db, actor, bannerFile);
      await bannersService.remove(app.database.db, file, auditActorOf(request));
      return { ok: true as const };
    },
  );

  app.get(
    '/files/image/:file',
    {
      schema: {
        tags: ['Images'],
        summary: 'A stored image (banner), with its stored Content-Type',
        description:
          'Public. Names are unique per upload, so responses are cacheable for a year (`immutable`) and ' +
          'carry an ETag (If-None-Match gives 304). `w` asks for a copy scaled down to that width (what the ' +
          'public pages show on phones; an image no wider is sent as stored). Images of inactive clients are ' +
          'not served (404).',
        params: z.object({ file: FileName }),
        querystring: z.object({
          w: z
            .enum(IMAGE_WIDTHS.map(String) as [string, ...string[]])
            .optional()
            .describe(`One of ${IMAGE_WIDTHS.join(', ')}`),
        }),
        response: {
          200: z.unknown().describe('The PNG or JPEG bytes'),
          304: z.null().describe('Not modified'),
          400: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const width = request.query.w === undefined ? null : Number(request.query.w);
      const image = await bannersService.servable(app.database.db, request.params.file, width);
      if (!image) throw new AppError(404, 'not_found', 'No such image');
      reply
        .header('etag', image.etag)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        // An image opened directly can run nothing, even if a browser were talked into sniffing it.
        .header('content-security-policy', "default-src 'none'; sandbox");
      // Answered before a byte of the image is read.
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === image.etag))
        return reply.status(304).send(null);
      const { body, byteSize } = await image.open();
      return reply
        .type(image.contentType)
        .header('content-length', String(byteSize))
        .send(body as unknown as string);
    },
  );
};
