import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { canAdministerClient, isProviderAdmin, type Actor, type ImageUploadResponse } from '@opp/contracts';
import type { Db, Executor } from '../../db/database.ts';
import { forbidden, notFound, validationFailed } from '../../errors.ts';
import { auditService, type auditActorOf } from '../audit/audit.service.ts';
import { clientsService } from '../clients/clients.service.ts';
import { filesRepository, type StoredFileMeta } from './files.repository.ts';
import { resizeImage, type ProcessedImage } from './image-processing.ts';

const NO_IMAGE = 'No such image';
type AuditContext = ReturnType<typeof auditActorOf>;

/**
 * Municipality banners (spec §4 "Banner save"). Each upload gets a new random name, so a name always
 * means the same bytes and can be cached forever; the client's BannerImage is switched to the new
 * file and the old file deleted in the same transaction, so no banner is ever half-replaced or orphaned.
 */
export const bannersService = {
  /** Who may upload for this client, checked before the upload is decoded. @throws 403, 404. */
  async authorizeUpload(db: Db, actor: Actor, clientId: number): Promise<void> {
    if (!canAdministerClient(actor, clientId)) throw forbidden('You do not administer this municipality');
    if (!(await clientsService.findById(db, clientId))) throw notFound('Unable to find municipality');
  },

  /** The banner being replaced or deleted, if the actor may touch it. @throws 404, 403. */
  async authorizeExisting(db: Db, actor: Actor, name: string): Promise<StoredFileMeta> {
    const file = await filesRepository.findMeta(db, name);
    if (!file || file.kind !== 'banner') throw notFound(NO_IMAGE);
    const allowed =
      file.clientId === null ? isProviderAdmin(actor) : canAdministerClient(actor, file.clientId);
    if (!allowed) throw forbidden('You do not administer this municipality');
    return file;
  },

  /** A stored file's description (no bytes), e.g. to check a banner a client names is its own. */
  async findMeta(db: Executor, name: string): Promise<StoredFileMeta | null> {
    return filesRepository.findMeta(db, name);
  },

  /** Deletes the client's banner files other than `keepName` (its new one; '' deletes them all). */
  async deleteBannersExcept(tx: Executor, clientId: number, keepName: string): Promise<number> {
    return filesRepository.deleteBannersExcept(tx, clientId, keepName);
  },

  /** Stores a new banner and makes it the client's (replacing any banner it had). */
  async create(
    db: Db,
    clientId: number,
    image: ProcessedImage,
    audit: AuditContext,
  ): Promise<ImageUploadResponse> {
    return db.transaction(async (tx) => {
      const stored = await storeBanner(tx, clientId, image);
      const before = await switchBanner(tx, clientId, stored.name);
      await auditBanner(tx, audit, clientId, 'banner.create', before, stored.name);
      return toResponse(stored);
    });
  },

  /** Replaces `old` (already authorized) with a new upload for the same client. @throws 400. */
  async replace(
    db: Db,
    old: StoredFileMeta,
    clientId: number,
    image: ProcessedImage,
    audit: AuditContext,
  ): Promise<ImageUploadResponse> {
    if (old.clientId !== clientId)
      throw validationFailed('ClientID', 'the image being replaced belongs to another municipality');
    return db.transaction(async (tx) => {
      const stored = await storeBanner(tx, clientId, image);
      const before = await switchBanner(tx, clientId, stored.name);
      await auditBanner(tx, audit, clientId, 'banner.replace', before, stored.name);
      return toResponse(stored);
    });
  },

  /** Deletes a banner (already authorized); a client showing it shows none afterwards. */
  async remove(db: Db, file: StoredFileMeta, audit: AuditContext): Promise<void> {
    await db.transaction(async (tx) => {
      await filesRepository.delete(tx, file.name);
      if (file.clientId === null) return;
      const client = await clientsService.findById(tx, file.clientId);
      if (client?.bannerImage === file.name) await clientsService.setBanner(tx, file.clientId, null);
      await auditBanner(
        tx,
        audit,
        file.clientId,
        'banner.delete',
        file.name,
        client?.bannerImage === file.name ? null : (client?.bannerImage ?? null),
      );
    });
  },

  /**
   * A servable image as sent: at most `width` pixels wide when asked (srcset), with an ETag naming
   * those bytes. Null when there is no such image (or its client is inactive). Nothing but the file's
   * description has been read yet: a request whose copy is current is answered from the ETag alone,
   * and `open()` reads the bytes only for an answer that sends them.
   */
  async servable(db: Db, name: string, width: number | null): Promise<ServableImage | null> {
    const file = await filesRepository.findServableMeta(db, name);
    if (!file) return null;
    if (width === null || file.width <= width)
      return {
        contentType: file.contentType,
        etag: `"${file.sha256}"`,
        open: () => openStored(db, file),
      };
    return {
      contentType: file.contentType,
      etag: `"${file.sha256}-w${width}"`,
      open: () => copyAtWidth(db, file, width),
    };
  },
};

export interface ServableImage {
  contentType: string;
  etag: string;
  /** The bytes: a buffer, or a stream of pieces for a large file, with its length. */
  open(): Promise<{ body: Buffer | Readable; byteSize: number }>;
}

/** Large files are read a piece at a time: one query never holds the database for a whole file. */
export const READ_CHUNK_BYTES = 256 * 1024;

async function openStored(
  db: Db,
  file: StoredFileMeta,
): Promise<{ body: Buffer | Readable; byteSize: number }> {
  if (file.byteSize <= READ_CHUNK_BYTES) {
    const body = await filesRepository.readChunk(db, file.name, 0, file.byteSize);
    // Deleted (a banner replaced) since its description was read.
    if (body.length !== file.byteSize) throw notFound(NO_IMAGE);
    return { body, byteSize: file.byteSize };
  }
  return { body: Readable.from(storedChunks(db, file)), byteSize: file.byteSize };
}

async function* storedChunks(db: Db, file: StoredFileMeta): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < file.byteSize; offset += READ_CHUNK_BYTES) {
    const length = Math.min(READ_CHUNK_BYTES, file.byteSize - offset);
    const chunk = await filesRepository.readChunk(db, file.name, offset, length);
    // Deleted (a banner replaced) while it was being sent: end the answer as failed, not short.
    if (chunk.length !== length) throw new Error(`stored file ${file.name} changed while it was sent`);
    yield chunk;
  }
}

async function readWhole(db: Db, file: StoredFileMeta): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of storedChunks(db, file)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/*
 * Copies at a width, newest used last, kept in this process on top of the database's (a few tens of
 * kilobytes each): a request for a known copy then costs one metadata query and no bytes read.
 */
const copies = new Map<string, Buffer>();
let copiesBytes = 0;
const COPIES_MAX_BYTES = 16 * 1024 * 1024;
/** Copies being made right now: concurrent requests for one wait for it rather than each making it. */
const making = new Map<string, Promise<Buffer>>();

function remember(key: string, bytes: Buffer) {
  copies.set(key, bytes);
  copiesBytes += bytes.length;
  for (const [k, v] of copies) {
    if (copiesBytes <= COPIES_MAX_BYTES) break;
    copies.delete(k);
    copiesBytes -= v.length;
  }
}

/** Forgets the copies kept in this process, as a node that has not served them (tests). */
export function forgetCopiesInProcess() {
  copies.clear();
  copiesBytes = 0;
}

/**
 * The stored image scaled to `width`: from this process, else from the database (made by any node),
 * else made now, from the original read once, and stored for every node.
 */
async function copyAtWidth(
  db: Db,
  file: StoredFileMeta,
  width: number,
): Promise<{ body: Buffer; byteSize: number }> {
  const key = `${file.name}:${width}`;
  const hit = copies.get(key);
  if (hit) {
    copies.delete(key);
    copies.set(key, hit);
    return { body: hit, byteSize: hit.length };
  }
  let pending = making.get(key);
  if (!pending) {
    pending = (async () => {
      const stored = await filesRepository.findVariant(db, file.name, width);
      if (stored) return stored.bytes;
      const bytes = await resizeImage(await readWhole(db, file), file.contentType, width);
      // The original may have been deleted meanwhile (its copies go with it): the copy is still sent.
      await filesRepository
        .insertVariant(db, { name: file.name, width, contentType: file.contentType, bytes })
        .catch(() => {});
      return bytes;
    })().finally(() => making.delete(key));
    making.set(key, pending);
    pending.then((bytes) => remember(key, bytes)).catch(() => {});
  }
  const bytes = await pending;
  return { body: bytes, byteSize: bytes.length };
}

async function storeBanner(tx: Executor, clientId: number, image: ProcessedImage) {
  return filesRepository.insert(tx, {
    name: `${randomBytes(16).toString('hex')}.${image.extension}`,
    clientId,
    kind: 'banner',
    contentType: image.contentType,
    byteSize: image.bytes.length,
    width: image.width,
    height: image.height,
    sha256: image.sha256,
    bytes: image.bytes,
  });
}

/**
 * Points the client at its new banner and deletes its other banner files. The client row update
 * comes first: its row lock orders two concurrent uploads, and whichever commits last wins cleanly
 * (it deletes the other's file, which is committed by then).
 */
async function switchBanner(tx: Executor, clientId: number, name: string): Promise<string | null> {
  const before = await clientsService.findById(tx, clientId);
  const updated = await clientsService.setBanner(tx, clientId, name);
  if (!updated) throw notFound('Unable to find municipality');
  await filesRepository.deleteBannersExcept(tx, clientId, name);
  return before?.bannerImage ?? null;
}

async function auditBanner(
  tx: Executor,
  audit: AuditContext,
  clientId: number,
  action: string,
  before: string | null,
  after: string | null,
) {
  await auditService.record(tx, {
    ...audit,
    clientId,
    action,
    entity: 'client',
    entityId: clientId,
    before: { BannerImage: before },
    after: { BannerImage: after },
  });
}

function toResponse(f: StoredFileMeta): ImageUploadResponse {
  return {
    BannerImage: f.name,
    ContentType: f.contentType,
    Width: f.width,
    Height: f.height,
    ByteSize: f.byteSize,
  };
}

/** Stored files as the demo seeds them: whether a name is stored, and a file stored as it is. */
export const storedFilesService = {
  async exists(db: Executor, name: string): Promise<boolean> {
    return (await filesRepository.findMeta(db, name)) !== null;
  },

  async insert(db: Executor, file: Parameters<typeof filesRepository.insert>[1]): Promise<StoredFileMeta> {
    return filesRepository.insert(db, file);
  },
};
