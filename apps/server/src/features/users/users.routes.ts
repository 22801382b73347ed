import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, IdParam, OkResponse, RoleIdSchema, User, UserBody, UserList } from '@opp/contracts';
import { requireUser } from '../../plugins/auth.ts';
import { auditActorOf } from '../audit/audit.service.ts';
import { confirmCredentials } from '../auth/confirm-credentials.ts';
import { usersService, type UserActor } from './users.service.ts';

const secured = { tags: ['Admins'], security: [{ bearerAuth: [] }] };
const denied = { 401: ErrorBody, 403: ErrorBody };
/** Anonymous calls get 401 before their body is even validated. */
const signedIn = { onRequest: async (request: FastifyRequest) => void requireUser(request) };

const RULES =
  'Only a provider admin (RoleID 1) or the client’s Super Administrator (2) may create, change or delete ' +
  'admins; nobody grants a role higher than their own; a Super Administrator only manages admins of their ' +
  'own client; RoleID 1 accounts have Manages null, every other role names one client. Nobody deletes ' +
  'their own account; only a provider admin edits their own row (never their own role). Usernames and ' +
  'emails are unique (case-insensitive, 409). Passwords need at least 12 characters.';

function actorOf(request: FastifyRequest): UserActor {
  const user = requireUser(request);
  return {
    ...user,
    accessToken: request.accessToken,
    audit: auditActorOf(request),
    confirmCredentials: (row, password, code) =>
      confirmCredentials(request.server, row, password, code, request.ip ?? null),
  };
}

/** Admin accounts (spec §7 "Municipality admin" and "Provider console" user calls). */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/:clientId',
    {
      ...signedIn,
      schema: {
        ...secured,
        summary: 'The admins of one client, sorted by Username',
        description:
          'A provider admin, or that client’s Super Administrator (a Site Administrator gets 403).',
        params: z.object({ clientId: IdParam }),
        response: { 200: UserList, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) => usersService.listForClient(app.database.db, actorOf(request), request.params.clientId),
  );

  app.get(
    '/users/role/:roleId',
    {
      ...signedIn,
      schema: {
        ...secured,
        summary: 'Every account with one role (the provider console lists RoleID 1); provider admins only',
        params: z.object({
          roleId: z
            .string()
            .regex(/^[1-4]$/, { message: 'RoleID must be 1, 2, 3 or 4' })
            .transform(Number)
            .pipe(RoleIdSchema),
        }),
        response: { 200: UserList, 400: ErrorBody, ...denied },
      },
    },
    async (request) => usersService.listByRole(app.database.db, actorOf(request), request.params.roleId),
  );

  app.post(
    '/user',
    {
      ...signedIn,
      schema: {
        ...secured,
        summary: 'Create an admin',
        description: `RoleID defaults to 3 and Manages to the caller’s own client. Password is required. ${RULES}`,
        body: UserBody,
        response: { 201: User, 400: ErrorBody, ...denied, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const user = await usersService.create(app.database.db, actorOf(request), request.body);
      return reply.status(201).send(user);
    },
  );

  app.put(
    '/user/:id',
    {
      ...signedIn,
      schema: {
        ...secured,
        summary: 'Change an admin',
        description:
          'RoleID and Manages keep their values when left out; Password changes only when sent non-empty, and ' +
          'a new password or email signs the account out everywhere else. Changing your own password, ' +
          'email or username needs CurrentPassword, and Code (authenticator or recovery code) when two-factor sign-in ' +
          `is on (400 naming the field otherwise). ${RULES}`,
        params: z.object({ id: IdParam }),
        body: UserBody,
        response: { 200: User, 400: ErrorBody, ...denied, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) =>
      usersService.update(app.database.db, actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/user/:id',
    {
      ...signedIn,
      schema: {
        ...secured,
        summary: 'Delete an admin (their sessions end with the account)',
        description: RULES,
        params: z.object({ id: IdParam }),
        response: { 200: OkResponse, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) => {
      await usersService.remove(app.database.db, actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
};
