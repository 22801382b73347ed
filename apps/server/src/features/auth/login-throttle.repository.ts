import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { loginThrottle } from '../../db/schema.ts';

export type ThrottleScope = 'user' | 'ip';

export interface ThrottleState {
  attempts: number;
  windowStart: Date;
  lockedUntil: Date | null;
  strikes: number;
  updatedAt: Date;
}

export const loginThrottleRepository = {
  /** The row, locked until the end of the transaction (nodes updating the same key queue up). */
  async findForUpdate(db: Executor, scope: ThrottleScope, key: string): Promise<ThrottleState | null> {
    await db
      .insert(loginThrottle)
      .values({ scope, key, attempts: 0, windowStart: new Date(0), strikes: 0, updatedAt: new Date(0) })
      .onConflictDoNothing();
    const [row] = await db
      .select({
        attempts: loginThrottle.attempts,
        windowStart: loginThrottle.windowStart,
        lockedUntil: loginThrottle.lockedUntil,
        strikes: loginThrottle.strikes,
        updatedAt: loginThrottle.updatedAt,
      })
      .from(loginThrottle)
      .where(and(eq(loginThrottle.scope, scope), eq(loginThrottle.key, key)))
      .for('update');
    return row && row.updatedAt.getTime() > 0 ? row : null;
  },

  async save(db: Executor, scope: ThrottleScope, key: string, state: ThrottleState) {
    await db
      .update(loginThrottle)
      .set(state)
      .where(and(eq(loginThrottle.scope, scope), eq(loginThrottle.key, key)));
  },

  async remove(db: Executor, scope: ThrottleScope, key: string) {
    await db.delete(loginThrottle).where(and(eq(loginThrottle.scope, scope), eq(loginThrottle.key, key)));
  },

  /** Gives back one counted attempt (never below zero). */
  async uncount(db: Executor, scope: ThrottleScope, key: string) {
    await db
      .update(loginThrottle)
      .set({ attempts: sql`greatest(${loginThrottle.attempts} - 1, 0)` })
      .where(and(eq(loginThrottle.scope, scope), eq(loginThrottle.key, key)));
  },

  /** Rows idle for a day carry no lock and no strikes worth keeping. */
  async deleteIdle(db: Executor, before: Date) {
    await db
      .delete(loginThrottle)
      .where(
        and(
          lt(loginThrottle.updatedAt, before),
          or(isNull(loginThrottle.lockedUntil), lt(loginThrottle.lockedUntil, before)),
        ),
      );
  },
};
