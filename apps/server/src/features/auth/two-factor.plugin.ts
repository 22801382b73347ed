import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { TwoFactorService } from './two-factor.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    twoFactor: TwoFactorService;
  }
}

/**
 * Makes two-factor sign-in part of every login (AuthService's second-factor step), and gives the
 * throttle its attempt back when the password was right and only the code is still to come, so the
 * normal two-step sign-in does not use up two of the five attempts.
 */
export const twoFactorPlugin = fp(
  async (app: FastifyInstance) => {
    const service = new TwoFactorService(app.database.db, {
      issuer: app.config.providerName,
      requireForProvider: app.config.requireTotpForProvider,
      guard: {
        check: (userId) => app.loginThrottle.checkCode(userId),
        accepted: (userId) => app.loginThrottle.codeAccepted(userId),
      },
    });
    app.decorate('twoFactor', service);
    app.authService.useLoginHooks({
      async verifySecondFactor(attempt, user) {
        if (user.totpEnabled && !attempt.code) await app.loginThrottle.release(attempt.identity);
        await service.verifyLogin(user, attempt.code, attempt.ip);
      },
    });
  },
  { name: 'two-factor', dependencies: ['auth', 'login-throttle'] },
);
