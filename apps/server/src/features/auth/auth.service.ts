import { INVALID_LOGIN_MESSAGE, type LoginResponse } from '@opp/contracts';
import type { Db } from '../../db/database.ts';
import { AppError, unauthorized } from '../../errors.ts';
import type { UserRow } from '../users/users.repository.ts';
import { toUserDto, usersService } from '../users/users.service.ts';
import { getDummyHash, verifyPassword } from './password.ts';
import type { SessionsService } from './sessions.service.ts';

export interface LoginAttempt {
  identity: string;
  password: string;
  /** TOTP or recovery code (LoginBody.Code). */
  code: string | undefined;
  ip: string | null;
  userAgent: string | null;
}

/**
 * The steps of a login that other features plug into. The order in `AuthService.login` is fixed:
 * throttle → find user → verify password → second factor → create session. The throttle runs first
 * because scrypt costs ~32 MiB and tens of milliseconds per attempt: a flood must be refused before
 * any hashing happens.
 */
export interface LoginHooks {
  /** Throw (e.g. `tooManyRequests`) to refuse the attempt before any password hashing. */
  checkThrottle(attempt: LoginAttempt): Promise<void>;
  /** A wrong username or password (called after the constant-time verification). */
  recordFailure(attempt: LoginAttempt, user: UserRow | null): Promise<void>;
  /** The password was right. Throw to refuse: the account needs a second factor and `code` is not valid. */
  verifySecondFactor(attempt: LoginAttempt, user: UserRow): Promise<void>;
  /** The login succeeded (after the session exists). */
  recordSuccess(attempt: LoginAttempt, user: UserRow): Promise<void>;
}

/**
 * Defaults until two-factor sign-in and throttling land: no throttle, and an account with two-factor
 * turned on is refused rather than let in on the password alone (fail closed).
 */
export const defaultLoginHooks: LoginHooks = {
  async checkThrottle() {},
  async recordFailure() {},
  async verifySecondFactor(_attempt, user) {
    if (user.totpEnabled)
      throw new AppError(401, 'two_factor_required', 'Enter the code from your authenticator app');
  },
  async recordSuccess() {},
};

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionsService,
    private hooks: LoginHooks = defaultLoginHooks,
  ) {}

  /** Replaces some login steps (the security feature installs throttling and two-factor here). */
  useLoginHooks(hooks: Partial<LoginHooks>) {
    this.hooks = { ...this.hooks, ...hooks };
  }

  /**
   * Signs a user in by username or email. A wrong password and an unknown identity give the same 401
   * with the same message, after the same scrypt work (the unknown case verifies against a dummy
   * hash), so neither the answer nor its timing tells whether an account exists.
   * @throws 401 unauthorized (wrong credentials), or whatever a login hook throws (429, 2FA).
   */
  async login(attempt: LoginAttempt): Promise<LoginResponse> {
    await this.hooks.checkThrottle(attempt);

    const user = await usersService.findByIdentity(this.db, attempt.identity);

    const hash = user ? user.passwordHash : await getDummyHash();
    const passwordOk = await verifyPassword(attempt.password, hash);
    if (!user || !passwordOk) {
      await this.hooks.recordFailure(attempt, user);
      throw unauthorized(INVALID_LOGIN_MESSAGE);
    }

    await this.hooks.verifySecondFactor(attempt, user);

    const accessToken = await this.sessions.create(user.id, {
      ip: attempt.ip,
      userAgent: attempt.userAgent,
    });
    await this.hooks.recordSuccess(attempt, user);
    return { Status: 200, user: toUserDto(user), accessToken };
  }

  /** Ends the session behind this token (no-op when there is none): logout is idempotent. */
  async logout(token: string | null): Promise<void> {
    if (token) await this.sessions.revoke(token);
  }
}
