import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClientList, CreateClientBody, ErrorBody, IdParam, PublicClient } from '@opp/contracts';
import { requireProvider } from '../../plugins/auth.ts';
import { auditActorOf } from '../audit/audit.service.ts';
import { clientsProviderService } from './clients.provider.service.ts';

const secured = { tags: ['Provider console'], security: [{ bearerAuth: [] }] };
const denied = { 401: ErrorBody, 403: ErrorBody };
/** Checked before the body is validated: a stranger learns nothing about the payload's rules. */
const providerOnly = { onRequest: async (request: FastifyRequest) => void requireProvider(request) };

const DeleteClientResponse = z.object({
  ok: z.literal(true),
  /** What went with the client. */
  deleted: z.object({
    properties: z.number().int(),
    contacts: z.number().int(),
    images: z.number().int(),
    admins: z.number().int(),
  }),
});

/** The provider console's client calls (spec §7): list, create, delete. Provider admins only. */
export const clientsProviderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/clients',
    {
      ...providerOnly,
      schema: {
        ...secured,
        summary: 'Every client, inactive ones included, sorted by City',
        response: { 200: ClientList, ...denied },
      },
    },
    async () => {
      return clientsProviderService.list(app.database.db);
    },
  );

  app.post(
    '/client',
    {
      ...providerOnly,
      schema: {
        ...secured,
        summary: 'Create a client',
        description:
          'City, Country and StateProvince are required. StateProvince is one of the 50 US states (name or ' +
          'abbreviation; the name is stored). A city may exist once per state (409). When AllowPaymentLink ' +
          'is true a non-empty PaymentLink must be a web address (https:// is assumed when it has no scheme).',
        body: CreateClientBody,
        response: { 201: PublicClient, 400: ErrorBody, ...denied, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const client = await clientsProviderService.create(
        app.database.db,
        request.body,
        auditActorOf(request),
      );
      return reply.status(201).send(client);
    },
  );

  app.delete(
    '/client/:id',
    {
      ...providerOnly,
      schema: {
        ...secured,
        summary: 'Delete a client and everything that is its own',
        description:
          'In one transaction: its properties, contacts, images, import history and old city names go; its ' +
          'admins keep their accounts but manage nothing and are signed out. 409 while a roll import for ' +
          'the client is running.',
        params: z.object({ id: IdParam }),
        response: { 200: DeleteClientResponse, 400: ErrorBody, ...denied, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const deleted = await clientsProviderService.delete(
        app.database.db,
        request.params.id,
        auditActorOf(request),
      );
      return { ok: true as const, deleted };
    },
  );
};
