import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { storedFiles } from '../../db/schema.ts';

export type StoredFile = typeof storedFiles.$inferSelect;
export type StoredFileMeta = Omit<StoredFile, 'bytes'>;

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

  async delete(db: Executor, name: string): Promise<boolean> {
    const rows = await db
      .delete(storedFiles)
      .where(eq(storedFiles.name, name))
      .returning({ name: storedFiles.name });
    return rows.length > 0;
  },
};
