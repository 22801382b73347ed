import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, IdParam, LoginBody, LoginResponse, OkResponse, PublicConfig, User } from '@opp/contracts';
import { requireUser } from '../../plugins/auth.ts';
import { usersService } from '../users/users.service.ts';

const tags = ['Authentication'];

/** Sign-in, sign-out, the signed-in user, and the public settings the login page needs. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/login',
    {
      schema: {
        tags,
        summary: 'Sign in with a username or email and a password',
        description:
          'Returns an opaque `accessToken` to send as `Authorization: Bearer <token>`. A session ends after ' +
          `${app.config.sessionIdleMinutes} minutes without a request (idle limit, SESSION_IDLE_MINUTES) and ` +
          `${app.config.sessionMaxHours} hours after sign-in whatever happens (absolute limit, ` +
          'SESSION_MAX_HOURS), on logout, when the password changes and when the account is deleted. A wrong ' +
          'username and a wrong password get the same 401 answer.',
        body: LoginBody,
        response: { 200: LoginResponse, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      return app.authService.login({
        identity: request.body.Identity,
        password: request.body.Password,
        code: request.body.Code,
        ip: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
      });
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags,
        summary: 'End the session of the bearer token sent (always succeeds)',
        security: [{ bearerAuth: [] }],
        response: { 200: OkResponse },
      },
    },
    async (request) => {
      await app.authService.logout(request.accessToken);
      return { ok: true as const };
    },
  );

  app.get(
    '/user/:id',
    {
      onRequest: async (request) => void requireUser(request),
      schema: {
        tags,
        summary: 'One account: the signed-in user themselves, or any account for a provider admin',
        security: [{ bearerAuth: [] }],
        params: z.object({ id: IdParam }),
        response: { 200: User, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const actor = requireUser(request);
      return usersService.get(app.database.db, actor, request.params.id);
    },
  );

  app.get(
    '/config',
    {
      schema: {
        tags,
        summary: 'Public settings for the web app (the provider name, the base map of the parcel maps)',
        response: { 200: PublicConfig },
      },
    },
    async () => ({ providerName: app.config.providerName, mapTilesUrl: app.config.mapTilesUrl }),
  );
};
