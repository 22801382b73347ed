import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Contact, ContactBody, ContactList, ErrorBody, IdParam, OkResponse } from '@opp/contracts';
import { requireUser } from '../../plugins/auth.ts';
import { auditActorOf } from '../audit/audit.service.ts';
import { contactsService } from './contacts.service.ts';

const secured = { tags: ['Contacts'], security: [{ bearerAuth: [] }] };
const denied = { 401: ErrorBody, 403: ErrorBody };
const signedIn = { onRequest: async (request: FastifyRequest) => void requireUser(request) };

const FIELDS =
  'Title (Name/Title) is required; ContactUrl must be a web address (https:// is added when left out); ' +
  'ContactEmail must be an email; every field may be empty otherwise, within its length limit. Admins of ' +
  'the client (RoleID 2 or 3 managing it) and provider admins only.';

/** A municipality's public contacts (spec §2 Contact Info modal) and their upkeep (§7). */
export const contactsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/contacts/:clientId',
    {
      schema: {
        tags: ['Contacts'],
        summary: 'The contacts of an active client, in the order they were added',
        params: z.object({ clientId: IdParam }),
        response: { 200: ContactList, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => contactsService.list(app.database.db, request.user, request.params.clientId),
  );

  app.post(
    '/contact',
    {
      ...signedIn,
      schema: {
        ...secured,
        summary: 'Add a contact',
        description: FIELDS,
        body: ContactBody,
        response: { 201: Contact, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const contact = await contactsService.create(
        app.database.db,
        requireUser(request),
        request.body,
        auditActorOf(request),
      );
      return reply.status(201).send(contact);
    },
  );

  app.put(
    '/contact/:id',
    {
      ...signedIn,
      schema: {
        ...secured,
        summary: 'Change a contact',
        description: `${FIELDS} ClientID must be the contact’s own client.`,
        params: z.object({ id: IdParam }),
        body: ContactBody,
        response: { 200: Contact, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) =>
      contactsService.update(
        app.database.db,
        requireUser(request),
        request.params.id,
        request.body,
        auditActorOf(request),
      ),
  );

  app.delete(
    '/contact/:id',
    {
      ...signedIn,
      schema: {
        ...secured,
        summary: 'Delete a contact',
        params: z.object({ id: IdParam }),
        response: { 200: OkResponse, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) => {
      await contactsService.remove(
        app.database.db,
        requireUser(request),
        request.params.id,
        auditActorOf(request),
      );
      return { ok: true as const };
    },
  );
};
