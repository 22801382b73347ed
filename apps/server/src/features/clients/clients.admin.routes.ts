import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, IdParam, PublicClient, UpdateClientBody } from '@opp/contracts';
import { requireClientAdmin, requireUser } from '../../plugins/auth.ts';
import { auditActorOf } from '../audit/audit.service.ts';
import { clientsAdminService } from './clients.admin.service.ts';

const signedIn = { onRequest: async (request: FastifyRequest) => void requireUser(request) };

/** The municipality admin's client form (spec §2 "Municipality admin"), also used by the provider console. */
export const clientsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/client/:clientId',
    {
      ...signedIn,
      schema: {
        tags: ['Municipality admin'],
        security: [{ bearerAuth: [] }],
        summary: 'Change a client',
        description:
          'Admins of the client (RoleID 2 or 3 managing it) may change City, Description (the title "Town of" ' +
          'followed by the city) and BannerImage (a file name from POST /api/image, or null); other fields ' +
          'sent with a changed value get 403. Provider admins may change every field. After a rename the ' +
          'old city name keeps resolving to the client (old public URLs redirect). 409 when another client ' +
          'in the state already has the name.',
        params: z.object({ clientId: IdParam }),
        body: UpdateClientBody,
        response: {
          200: PublicClient,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
        },
      },
    },
    async (request) => {
      const actor = requireClientAdmin(request, request.params.clientId);
      return clientsAdminService.update(
        app.database.db,
        actor,
        request.params.clientId,
        request.body,
        auditActorOf(request),
      );
    },
  );
};
