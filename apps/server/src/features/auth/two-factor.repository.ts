import { and, count, eq, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { totpRecoveryCodes, users } from '../../db/schema.ts';

export interface TwoFactorRow {
  id: number;
  username: string;
  roleId: number;
  totpSecret: string | null;
  totpEnabled: boolean;
  totpLastStep: number | null;
}

/** The users table's two-factor columns and the recovery codes; nothing else about users lives here. */
export const twoFactorRepository = {
  async find(db: Executor, userId: number): Promise<TwoFactorRow | null> {
    const [row] = await db
      .select({
        id: users.id,
        username: users.username,
        roleId: users.roleId,
        totpSecret: users.totpSecret,
        totpEnabled: users.totpEnabled,
        totpLastStep: users.totpLastStep,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row ?? null;
  },

  /** A new, not yet confirmed secret (only while two-factor is off). */
  async setPendingSecret(db: Executor, userId: number, secret: string): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ totpSecret: secret, totpLastStep: null })
      .where(and(eq(users.id, userId), eq(users.totpEnabled, false)))
      .returning({ id: users.id });
    return rows.length > 0;
  },

  async enable(db: Executor, userId: number, secret: string, step: number): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ totpEnabled: true, totpLastStep: step })
      .where(and(eq(users.id, userId), eq(users.totpEnabled, false), eq(users.totpSecret, secret)))
      .returning({ id: users.id });
    return rows.length > 0;
  },

  async disable(db: Executor, userId: number) {
    await db
      .update(users)
      .set({ totpEnabled: false, totpSecret: null, totpLastStep: null })
      .where(eq(users.id, userId));
    await db.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, userId));
  },

  /**
   * Marks a step as used, only if it is later than the last one used. One statement, so two nodes
   * checking the same code at the same moment cannot both accept it.
   */
  async useStep(db: Executor, userId: number, step: number): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return rows.length > 0;
  },

  async replaceRecoveryCodes(db: Executor, userId: number, hashes: string[]) {
    await db.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, userId));
    if (hashes.length)
      await db.insert(totpRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
  },

  /** Spends a recovery code: true when it existed (and now no longer does). */
  async useRecoveryCode(db: Executor, userId: number, codeHash: string): Promise<boolean> {
    const rows = await db
      .delete(totpRecoveryCodes)
      .where(and(eq(totpRecoveryCodes.userId, userId), eq(totpRecoveryCodes.codeHash, codeHash)))
      .returning({ userId: totpRecoveryCodes.userId });
    return rows.length > 0;
  },

  async countRecoveryCodes(db: Executor, userId: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(totpRecoveryCodes)
      .where(eq(totpRecoveryCodes.userId, userId));
    return Number(row?.n ?? 0);
  },
};
