import { and, desc, eq, gte, like, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { auditLog } from '../../db/schema.ts';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

export interface AuditFilter {
  clientId?: number;
  actorUsername?: string;
  /** Exact action, or a prefix when it ends with `*`. */
  action?: string;
  from?: Date;
  /** Exclusive upper bound. */
  to?: Date;
}

function where(f: AuditFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.clientId !== undefined) parts.push(eq(auditLog.clientId, f.clientId));
  if (f.actorUsername !== undefined)
    parts.push(sql`lower(${auditLog.actorUsername}) = ${f.actorUsername.toLowerCase()}`);
  if (f.action !== undefined) {
    if (f.action.endsWith('*')) {
      // Escape LIKE's own metacharacters: the prefix is matched literally.
      const prefix = f.action.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`);
      parts.push(like(auditLog.action, `${prefix}%`));
    } else parts.push(eq(auditLog.action, f.action));
  }
  if (f.from) parts.push(gte(auditLog.at, f.from));
  if (f.to) parts.push(lt(auditLog.at, f.to));
  return parts.length ? and(...parts) : undefined;
}

/** Insert and read only: the table refuses updates and deletes (migrations/0003_security.sql). */
export const auditRepository = {
  async insert(db: Executor, row: NewAuditRow): Promise<void> {
    await db.insert(auditLog).values(row);
  },

  async list(db: Executor, filter: AuditFilter, limit: number, offset: number): Promise<AuditRow[]> {
    return db
      .select()
      .from(auditLog)
      .where(where(filter))
      .orderBy(desc(auditLog.id))
      .limit(limit)
      .offset(offset);
  },

  async count(db: Executor, filter: AuditFilter): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where(filter));
    return row?.n ?? 0;
  },
};
