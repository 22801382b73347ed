import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.ts';
import { tooManyRequests } from '../../errors.ts';
import { addressKey } from '../../plugins/rate-limit.ts';
import {
  loginThrottleRepository,
  type ThrottleScope,
  type ThrottleState,
} from './login-throttle.repository.ts';

/*
 * Sign-in throttling, per account and per client address, kept in the database so that every API node
 * counts against the same budget.
 *
 * An attempt is counted when it is checked, before the password is hashed: scrypt costs 32 MiB and tens
 * of milliseconds, and counting only after the hash would let a burst of parallel requests all pass
 * the check before the first failure is written. A successful sign-in gives the address its attempt back
 * and clears the account's record; a failed one simply stays counted.
 *
 * Per account: 5 attempts per 15 minutes. The first lock-out lasts until that window ends; each further
 * one without a success in between lasts twice as long as the last (30 min, 1 h, … up to a day).
 * Per address: 25 attempts per 5 minutes, no growth (many people may share an office's address).
 * Unknown usernames are throttled exactly like real ones, so a 429 tells nothing about existence.
 */

export interface ThrottlePolicy {
  limit: number;
  windowMs: number;
  /** Lock-outs grow (×2 per strike) up to this; 0 = no growth, the lock ends with the window. */
  maxLockMs: number;
}

export const USER_POLICY: ThrottlePolicy = { limit: 5, windowMs: 15 * 60_000, maxLockMs: 24 * 3600_000 };
export const IP_POLICY: ThrottlePolicy = { limit: 25, windowMs: 5 * 60_000, maxLockMs: 0 };
const STRIKES_FORGOTTEN_AFTER_MS = 24 * 3600_000;

export interface StepResult {
  state: ThrottleState;
  allowed: boolean;
  retryAfterMs: number;
}

/** One attempt against one counter: pure, so the whole schedule is tested without waiting. */
export function step(previous: ThrottleState | null, now: Date, policy: ThrottlePolicy): StepResult {
  const t = now.getTime();
  const s: ThrottleState = previous
    ? { ...previous }
    : { attempts: 0, windowStart: now, lockedUntil: null, strikes: 0, updatedAt: now };
  if (t - s.updatedAt.getTime() > STRIKES_FORGOTTEN_AFTER_MS) s.strikes = 0;
  s.updatedAt = now;

  if (s.lockedUntil && s.lockedUntil.getTime() > t) {
    return { state: s, allowed: false, retryAfterMs: s.lockedUntil.getTime() - t };
  }
  if (s.windowStart.getTime() + policy.windowMs <= t) {
    s.attempts = 0;
    s.windowStart = now;
  }
  if (s.attempts < policy.limit) {
    s.attempts += 1;
    return { state: s, allowed: true, retryAfterMs: 0 };
  }

  // The budget of this window is spent: lock.
  const windowEnd = s.windowStart.getTime() + policy.windowMs;
  const lockEnd =
    policy.maxLockMs > 0 && s.strikes > 0
      ? t + Math.min(policy.windowMs * 2 ** s.strikes, policy.maxLockMs)
      : windowEnd;
  s.strikes += 1;
  s.lockedUntil = new Date(lockEnd);
  // The next window starts when the lock ends, with a fresh budget.
  s.attempts = 0;
  s.windowStart = new Date(lockEnd);
  return { state: s, allowed: false, retryAfterMs: lockEnd - t };
}

/** Throttle keys never hold what people typed: a mistyped password in the username box stays private. */
const identityKey = (identity: string) =>
  createHash('sha256').update(identity.trim().toLowerCase()).digest('hex');
const ipKey = (ip: string | null) => addressKey(ip ?? 'unknown');
const codeKey = (userId: number) => createHash('sha256').update(`\0two-factor:${userId}`).digest('hex');

export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Counts one sign-in attempt for the address and the account.
   * @throws 429 too_many_requests with Retry-After when either budget is spent.
   */
  async check(identity: string, ip: string | null): Promise<void> {
    await this.count(
      [
        ['ip', ipKey(ip), IP_POLICY],
        ['user', identityKey(identity), USER_POLICY],
      ],
      (scope) => `Too many sign-in attempts${scope === 'ip' ? ' from your address' : ''}`,
    );
  }

  /**
   * Counts one two-factor code typed by a signed-in admin (turning it on or off, new recovery codes):
   * a stolen session must not be able to guess its way to those. The same budget and growing lock-outs
   * as a sign-in, on a counter of its own (a NUL-prefixed key, which no username can produce).
   * @throws 429 too_many_requests with Retry-After when the budget is spent.
   */
  async checkCode(userId: number): Promise<void> {
    await this.count([['user', codeKey(userId), USER_POLICY]], () => 'Too many two-factor codes tried');
  }

  /** The code was right: its counter and lock-outs are cleared. */
  async codeAccepted(userId: number): Promise<void> {
    await loginThrottleRepository.remove(this.db, 'user', codeKey(userId));
  }

  private async count(
    counters: [ThrottleScope, string, ThrottlePolicy][],
    what: (scope: ThrottleScope) => string,
  ): Promise<void> {
    const now = this.clock();
    const denied = await this.db.transaction(async (tx) => {
      for (const [scope, key, policy] of counters) {
        const result = step(await loginThrottleRepository.findForUpdate(tx, scope, key), now, policy);
        await loginThrottleRepository.save(tx, scope, key, result.state);
        if (!result.allowed) return { scope, retryAfterMs: result.retryAfterMs };
      }
      return null;
    });
    if (denied) {
      const minutes = Math.ceil(denied.retryAfterMs / 60_000);
      throw tooManyRequests(
        denied.retryAfterMs / 1000,
        `${what(denied.scope)}; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
      );
    }
  }

  /** A wrong password or code. The attempt was already counted by `check`; nothing more to write. */
  async recordFailure(_identity: string, _ip: string | null): Promise<void> {}

  /** The account proved itself: its record (and growing lock-outs) are cleared; the address gets its attempt back. */
  async recordSuccess(identity: string, ip: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      await loginThrottleRepository.remove(tx, 'user', identityKey(identity));
      await loginThrottleRepository.uncount(tx, 'ip', ipKey(ip));
    });
  }

  /**
   * Gives the account back an attempt that was neither right nor wrong: the password was right and the
   * second factor is still to come. The address keeps it counted, so repeating that step cannot be used
   * to make the server hash passwords without limit.
   */
  async release(identity: string): Promise<void> {
    await loginThrottleRepository.uncount(this.db, 'user', identityKey(identity));
  }

  async deleteIdle(): Promise<void> {
    await loginThrottleRepository.deleteIdle(
      this.db,
      new Date(this.clock().getTime() - STRIKES_FORGOTTEN_AFTER_MS),
    );
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    loginThrottle: LoginThrottle;
  }
}

/** Puts the throttle in front of every sign-in (AuthService login hooks). */
export const loginThrottlePlugin = fp(
  async (app: FastifyInstance) => {
    const throttle = new LoginThrottle(app.database.db);
    app.decorate('loginThrottle', throttle);
    app.authService.useLoginHooks({
      checkThrottle: (attempt) => throttle.check(attempt.identity, attempt.ip),
      recordFailure: (attempt) => throttle.recordFailure(attempt.identity, attempt.ip),
      recordSuccess: (attempt) => throttle.recordSuccess(attempt.identity, attempt.ip),
    });
    const timer = setInterval(
      () => throttle.deleteIdle().catch((err) => app.log.warn({ err }, 'login-throttle cleanup failed')),
      3600_000,
    );
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'login-throttle', dependencies: ['auth'] },
);
