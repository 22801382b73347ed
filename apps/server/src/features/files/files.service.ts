import { randomBytes } from 'node:crypto';
import { canAdministerClient, isProviderAdmin, type Actor, type ImageUploadResponse } from '@opp/contracts';
import type { Db, Executor } from '../../db/database.ts';
import { forbidden, notFound, validationFailed } from '../../errors.ts';
import { auditService, type auditActorOf } from '../audit/audit.service.ts';
import { clientsRepository } from '../clients/clients.repository.ts';
import { filesRepository, type StoredFileMeta } from './files.repository.ts';
import { imageAtWidth, type ProcessedImage } from './image-processing.ts';

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
    if (!(await clientsRepository.findById(db, clientId))) throw notFound('Unable to find municipality');
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
      const client = await clientsRepository.findById(tx, file.clientId);
      if (client?.bannerImage === file.name)
        await clientsRepository.update(tx, file.clientId, { bannerImage: null });
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

  /** A stored image the public may fetch, or null (missing, or its client is inactive). */
  /**
   * A servable image as sent: at most `width` pixels wide when asked (srcset), with an ETag naming
   * those bytes. Null when there is no such image (or its client is inactive).
   */
  async servable(
    db: Db,
    name: string,
    width: number | null,
  ): Promise<{ bytes: Buffer; contentType: string; etag: string } | null> {
    const file = await filesRepository.findServable(db, name);
    if (!file) return null;
    if (width === null || file.width <= width)
      return { bytes: file.bytes, contentType: file.contentType, etag: `"${file.sha256}"` };
    const bytes = await imageAtWidth(file, width);
    return { bytes, contentType: file.contentType, etag: `"${file.sha256}-w${width}"` };
  },
};

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
  const before = await clientsRepository.findById(tx, clientId);
  const updated = await clientsRepository.update(tx, clientId, { bannerImage: name });
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
