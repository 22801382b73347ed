import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { canAdministerClient, isProviderAdmin } from '@opp/contracts';
import { SessionsService } from '../features/auth/sessions.service.ts';
import { AuthService } from '../features/auth/auth.service.ts';
import type { SessionUser } from '../features/auth/sessions.repository.ts';
import { forbidden, unauthorized } from '../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionsService;
    /** Login and logout; other features add login steps through `authService.useLoginHooks`. */
    authService: AuthService;
  }
  interface FastifyRequest {
    /** The signed-in user, or null (anonymous, or an invalid/expired token). */
    user: SessionUser | null;
    /** The bearer token as sent, for logout. */
    accessToken: string | null;
  }
}

/** Reads `Authorization: Bearer …` on every request. Bearer tokens only: no cookies, so no CSRF surface. */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    const sessions = new SessionsService(app.database.db, {
      idleMinutes: app.config.sessionIdleMinutes,
      maxHours: app.config.sessionMaxHours,
    });
    app.decorate('sessions', sessions);
    app.decorate('authService', new AuthService(app.database.db, sessions));
    app.decorateRequest('user', null);
    app.decorateRequest('accessToken', null);
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      if (!header || !request.url.startsWith('/api/')) return;
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match?.[1]) return;
      request.accessToken = match[1];
      request.user = await sessions.authenticate(match[1]);
    });
  },
  { name: 'auth', dependencies: ['error-handler'] },
);

/** Guards for services and routes: 401 when nobody is signed in, 403 when the signed-in user may not. */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  // REQUIRE_TOTP_FOR_PROVIDER: a provider admin without two-factor sign-in may only enrol (403 until then).
  request.server.twoFactor?.assertEnrolled(request.user);
  return request.user;
}

export function requireProvider(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (!isProviderAdmin(user)) throw forbidden('Only provider administrators may do that');
  return user;
}

export function requireClientAdmin(request: FastifyRequest, clientId: number): SessionUser {
  const user = requireUser(request);
  if (!canAdministerClient(user, clientId)) throw forbidden('You do not administer this municipality');
  return user;
}
