import { and, eq, getTableColumns, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { clients, storedFiles, storedFileVariants } from '../../db/schema.ts';

export type StoredFile = typeof storedFiles.$inferSelect;
export type StoredFileMeta = Omit<StoredFile, 'bytes'>;
export type StoredVariant = Pick<typeof storedFileVariants.$inferSelect, 'contentType' | 'bytes'>;

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
   * A file the public may fetch, without its bytes: one of an active client's, or one that belongs to
   * no client. Null for a missing file and for an inactive client's (the same answer, so neither is
   * revealed). Its validators and size are known before a byte is read.
   */
  async findServableMeta(db: Executor, name: string): Promise<StoredFileMeta | null> {
    const [row] = await db
      .select({ file: metaColumns, clientActive: clients.isActive })
      .from(storedFiles)
      .leftJoin(clients, eq(clients.id, storedFiles.clientId))
      .where(eq(storedFiles.name, name))
      .limit(1);
    if (!row) return null;
    if (row.file.clientId !== null && row.clientActive !== true) return null;
    return row.file;
  },

  /** `length` bytes of a stored file from `offset` (one short query: large files are sent in pieces). */
  async readChunk(db: Executor, name: string, offset: number, length: number): Promise<Buffer> {
    const [row] = await db
      .select({
        chunk: sql<Buffer>`substring(${storedFiles.bytes} from ${offset + 1} for ${length})`.mapWith(
          storedFiles.bytes,
        ),
      })
      .from(storedFiles)
      .where(eq(storedFiles.name, name))
      .limit(1);
    return row?.chunk ?? Buffer.alloc(0);
  },

  /** The copy of a stored image at `width` made earlier (by any node), or null. */
  async findVariant(db: Executor, name: string, width: number): Promise<StoredVariant | null> {
    const [row] = await db
      .select({ contentType: storedFileVariants.contentType, bytes: storedFileVariants.bytes })
      .from(storedFileVariants)
      .where(and(eq(storedFileVariants.name, name), eq(storedFileVariants.width, width)))
      .limit(1);
    return row ?? null;
  },

  /** Keeps a copy; two nodes making the same one at once both succeed (the bytes are the same image). */
  async insertVariant(
    db: Executor,
    variant: { name: string; width: number; contentType: 'image/png' | 'image/jpeg'; bytes: Buffer },
  ): Promise<void> {
    await db
      .insert(storedFileVariants)
      .values({ ...variant, byteSize: variant.bytes.length })
      .onConflictDoNothing();
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
