import { and, eq, gt, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { sessions, users } from '../../db/schema.ts';

export interface SessionUser {
  id: number;
  username: string;
  email: string;
  roleId: 1 | 2 | 3 | 4;
  manages: number | null;
  totpEnabled: boolean;
}

export const sessionsRepository = {
  async insert(
    db: Executor,
    row: { tokenHash: string; userId: number; expiresAt: Date; ip: string | null; userAgent: string | null },
  ) {
    await db.insert(sessions).values(row);
  },

  /** The live session's user, or null. A session is live while under both the idle and the absolute limit. */
  async findLiveUser(
    db: Executor,
    tokenHash: string,
    idleCutoff: Date,
  ): Promise<(SessionUser & { lastSeenAt: Date }) | null> {
    const rows = await db
      .select({
        id: users.id,
        username: users.username,
        email: users.email,
        roleId: users.roleId,
        manages: users.manages,
        totpEnabled: users.totpEnabled,
        lastSeenAt: sessions.lastSeenAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, tokenHash),
          gt(sessions.expiresAt, sql`now()`),
          gt(sessions.lastSeenAt, idleCutoff),
        ),
      )
      .limit(1);
    const row = rows[0];
    return row ? { ...row, roleId: row.roleId as SessionUser['roleId'] } : null;
  },

  async touch(db: Executor, tokenHash: string) {
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(sessions.tokenHash, tokenHash));
  },

  async delete(db: Executor, tokenHash: string) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  },

  async deleteForUser(db: Executor, userId: number) {
    await db.delete(sessions).where(eq(sessions.userId, userId));
  },

  /** Every session of the user but one (a user who changes their own password stays signed in here). */
  async deleteForUserExcept(db: Executor, userId: number, keepTokenHash: string) {
    await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)));
  },

  async deleteExpired(db: Executor, idleCutoff: Date) {
    await db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, sql`now()`), lt(sessions.lastSeenAt, idleCutoff)));
  },
};
