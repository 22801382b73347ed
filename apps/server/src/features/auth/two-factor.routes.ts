import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorBody,
  OkResponse,
  TwoFactorCodeBody,
  TwoFactorConfirmResponse,
  TwoFactorRecoveryCodesResponse,
  TwoFactorStartResponse,
  TwoFactorStatus,
} from '@opp/contracts';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors.ts';
import { auditActorOf } from '../audit/audit.service.ts';

/** Signed in, whether or not enrolment is still owed: these routes are how it gets paid. */
function requireSignedIn(request: FastifyRequest) {
  if (!request.user) throw unauthorized();
  return request.user;
}

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const tags = ['Two-factor sign-in'];
const security = [{ bearerAuth: [] }];

export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/two-factor',
    {
      schema: {
        tags,
        security,
        summary: 'Whether two-factor sign-in is on for the signed-in admin',
        response: { 200: TwoFactorStatus, ...errors },
      },
    },
    async (request) => app.twoFactor.status(requireSignedIn(request)),
  );

  app.post(
    '/two-factor/start',
    {
      schema: {
        tags,
        security,
        summary: 'Start enrolment: a new secret and its otpauth:// URI for an authenticator app',
        response: { 200: TwoFactorStartResponse, ...errors },
      },
    },
    async (request) => app.twoFactor.start(requireSignedIn(request)),
  );

  app.post(
    '/two-factor/confirm',
    {
      schema: {
        tags,
        security,
        summary: 'Finish enrolment with a code from the app; answers the recovery codes, once',
        body: TwoFactorCodeBody,
        response: { 200: TwoFactorConfirmResponse, ...errors },
      },
    },
    async (request) =>
      app.twoFactor.confirm(requireSignedIn(request), request.body.Code, auditActorOf(request)),
  );

  app.post(
    '/two-factor/recovery-codes',
    {
      schema: {
        tags,
        security,
        summary:
          'Replace all recovery codes with new ones (needs a current authenticator code, not a recovery code); answers them once',
        body: TwoFactorCodeBody,
        response: { 200: TwoFactorRecoveryCodesResponse, ...errors },
      },
    },
    async (request) =>
      app.twoFactor.replaceRecoveryCodes(requireSignedIn(request), request.body.Code, auditActorOf(request)),
  );

  app.post(
    '/two-factor/disable',
    {
      schema: {
        tags,
        security,
        summary: 'Turn two-factor sign-in off (needs a current code or a recovery code)',
        body: TwoFactorCodeBody,
        response: { 200: OkResponse, ...errors },
      },
    },
    async (request) => {
      await app.twoFactor.disable(requireSignedIn(request), request.body.Code, auditActorOf(request));
      return { ok: true as const };
    },
  );
};
