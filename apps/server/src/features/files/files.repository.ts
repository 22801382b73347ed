import { and, eq, getTableColumns, ne } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { clients, storedFiles } from '../../db/schema.ts';

export type StoredFile = typeof storedFiles.$inferSelect;
export type StoredFileMeta = Omit<StoredFile, 'bytes'>;

const { bytes: _bytes, ...metaColumns } = getTableColumns(storedFiles);

/** Images live in the database (bytea) so every API node serves the same files. */
export const filesRepository = {
  async insert(db: Executor, file: typeof storedFiles.$inferInsert): Promise<StoredFileMeta> {
    const [row] = await db.insert(storedFiles).values(file).returning({
      name: storedFiles.name,
      clientId: storedFiles.clientId,
      kind: storedFiles.kind,
      contentType: storedFiles.contentType,
      byteSize: storedFiles.byteSize,
      width: storedFiles.width,
      height: storedFiles.height,
      sha256: storedFiles.sha256,
      createdAt: storedFiles.createdAt,
    });
    return row!;
  },

  async findByName(db: Executor, name: string): Promise<StoredFile | null> {
    const [row] = await db.select().from(storedFiles).where(eq(storedFiles.name, name)).limit(1);
    return row ?? null;
  },

  /** Everything but the bytes (authorization and validation need no 5 MB read). */
  async findMeta(db: Executor, name: string): Promise<StoredFileMeta | null> {
    const [row] = await db.select(metaColumns).from(storedFiles).where(eq(storedFiles.name, name)).limit(1);
    return row ?? null;
  },

  /**
   * A file the public may fetch: one of an active client's, or one that belongs to no client.
   * Null for a missing file and for an inactive client's (the same answer, so neither is revealed).
   */
  async findServable(db: Executor, name: string): Promise<StoredFile | null> {
    const [row] = await db
      .select({ file: storedFiles, clientActive: clients.isActive })
      .from(storedFiles)
      .leftJoin(clients, eq(clients.id, storedFiles.clientId))
      .where(eq(storedFiles.name, name))
      .limit(1);
    if (!row) return null;
    if (row.file.clientId !== null && row.clientActive !== true) return null;
    return row.file;
  },

  /** A client's banner files other than `keepName` (a client shows one banner; older ones are garbage). */
  async deleteBannersExcept(db: Executor, clientId: number, keepName: string): Promise<number> {
    const rows = await db
      .delete(storedFiles)
      .where(
        and(
          eq(storedFiles.clientId, clientId),
          eq(storedFiles.kind, 'banner'),
          ne(storedFiles.name, keepName),
        ),
      )
      .returning({ name: storedFiles.name });
    return rows.length;
  },

  async delete(db: Executor, name: string): Promise<boolean> {
    const rows = await db
      .delete(storedFiles)
      .where(eq(storedFiles.name, name))
      .returning({ name: storedFiles.name });
    return rows.length > 0;
  },
};
