import { asc, eq, sql } from 'drizzle-orm';
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

  async count(db: Executor): Promise<number> {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
    return row?.n ?? 0;
  },
};
