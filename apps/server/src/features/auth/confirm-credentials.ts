import type { FastifyInstance } from 'fastify';
import { AppError, validationFailed } from '../../errors.ts';
import type { UserRow } from '../users/users.repository.ts';
import { verifyPassword } from './password.ts';

/**
 * Proves that the person changing an account's own password, email or username is its owner, not someone holding
 * a stolen or forgotten-open session: the current password, and the second factor when it is on. Each
 * try counts against the account's code budget (login-throttle.ts), so a session cannot be used to guess
 * the password without limit.
 * @throws 400 naming CurrentPassword or Code; 429 when the budget is spent.
 */
export async function confirmCredentials(
  app: FastifyInstance,
  user: UserRow,
  password: string | undefined,
  code: string | undefined,
  ip: string | null,
): Promise<void> {
  if (!password)
    throw validationFailed(
      'CurrentPassword',
      'enter your current password to change your password, email or username',
    );
  await app.loginThrottle.checkCode(user.id);
  if (!(await verifyPassword(password, user.passwordHash)))
    throw validationFailed('CurrentPassword', 'your current password was not accepted');
  if (user.totpEnabled) {
    if (!code) throw validationFailed('Code', 'enter the code from your authenticator app');
    try {
      await app.twoFactor.verifyLogin(user, code, ip);
    } catch (err) {
      // Not 401: the session itself is fine, only this confirmation failed.
      if (err instanceof AppError && err.code === 'two_factor_required')
        throw validationFailed('Code', 'that code was not accepted');
      throw err;
    }
  }
  await app.loginThrottle.codeAccepted(user.id);
}
