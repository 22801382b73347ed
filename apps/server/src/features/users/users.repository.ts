import { and, asc, eq, ne, or, sql } from 'drizzle-orm';
import type { User } from '@opp/contracts';
import type { Executor } from '../../db/database.ts';
import { users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

/** The public shape of a user: never the hash, never the TOTP secret. */
export function toUserDto(u: UserRow): User {
  return {
    UserId: u.id,
    Username: u.username,
    Email: u.email,
    RoleID: u.roleId as User['RoleID'],
    Manages: u.manages,
    TwoFactorEnabled: u.totpEnabled,
  };
}

export const usersRepository = {
  async insert(
    db: Executor,
    u: { username: string; email: string; roleId: number; manages: number | null; passwordHash: string },
  ): Promise<UserRow> {
    const [row] = await db
      .insert(users)
      .values({ ...u, totpEnabled: false })
      .returning();
    return row!;
  },

  async findById(db: Executor, id: number): Promise<UserRow | null> {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    return row ?? null;
  },

  /** By username or email, case-insensitively (the login Identity). */
  async findByIdentity(db: Executor, identity: string): Promise<UserRow | null> {
    const key = identity.trim().toLowerCase();
    const [row] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = ${key} or lower(${users.email}) = ${key}`)
      .limit(1);
    return row ?? null;
  },

  async listByClient(db: Executor, clientId: number): Promise<UserRow[]> {
    return db
      .select()
      .from(users)
      .where(eq(users.manages, clientId))
      .orderBy(asc(sql`lower(${users.username})`));
  },

  async listByRole(db: Executor, roleId: number): Promise<UserRow[]> {
    return db
      .select()
      .from(users)
      .where(eq(users.roleId, roleId))
      .orderBy(asc(sql`lower(${users.username})`));
  },

  /** Changes the given columns; a new password hash also stamps password_changed_at. */
  async update(
    db: Executor,
    id: number,
    changes: Partial<{
      username: string;
      email: string;
      roleId: number;
      manages: number | null;
      passwordHash: string;
    }>,
  ): Promise<UserRow | null> {
    const [row] = await db
      .update(users)
      .set({ ...changes, ...(changes.passwordHash ? { passwordChangedAt: sql`now()` } : {}) })
      .where(eq(users.id, id))
      .returning();
    return row ?? null;
  },

  /** Deletes the account; its sessions go with it (foreign key cascade). */
  async delete(db: Executor, id: number): Promise<boolean> {
    const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    return rows.length > 0;
  },

  /** Which of username / email another account (not `exceptId`) already uses, case-insensitively. */
  async findTaken(
    db: Executor,
    username: string,
    email: string,
    exceptId: number | null,
  ): Promise<{ username: boolean; email: boolean }> {
    const rows = await db
      .select({ username: users.username, email: users.email })
      .from(users)
      .where(
        and(
          or(
            sql`lower(${users.username}) = ${username.toLowerCase()}`,
            sql`lower(${users.email}) = ${email.toLowerCase()}`,
          ),
          exceptId === null ? undefined : ne(users.id, exceptId),
        ),
      );
    return {
      username: rows.some((r) => r.username.toLowerCase() === username.toLowerCase()),
      email: rows.some((r) => r.email.toLowerCase() === email.toLowerCase()),
    };
  },

  async count(db: Executor): Promise<number> {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
    return row?.n ?? 0;
  },
};
