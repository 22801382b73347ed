import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClientLookup, ErrorBody, IdParam, PublicClient, safeText } from '@opp/contracts';
import { bodyEtag, isNotModified } from '../../plugins/conditional-get.ts';
import { publicClientsService } from './clients.service.ts';

const tags = ['Public'];
const NotModified = z.null().describe('Not modified: the copy named by If-None-Match is current');
const PathText = (label: string) =>
  safeText(100).pipe(
    z
      .string()
      .trim()
      .min(1, { message: `${label} is required` }),
  );
const NameList = z.array(z.string());

/** Spec §7 public client calls: the home page's pickers and the town lookups. */
export const clientsPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;

  app.get(
    '/states',
    {
      schema: {
        tags,
        summary: 'States with a listed town',
        description:
          'Names of the states that have at least one active production town, sorted. Test towns are not ' +
          'listed (they are reached by URL).',
        response: { 200: NameList, 304: NotModified },
      },
    },
    async (request, reply) => {
      const states = await publicClientsService.listStates(db);
      if (isNotModified(request, reply, { etag: bodyEtag(states) })) return reply.code(304).send(null);
      return states;
    },
  );

  app.get(
    '/:state/cities',
    {
      schema: {
        tags,
        summary: "A state's listed towns",
        description:
          'Names of the active production towns of `state` (name or USPS abbreviation, any case), sorted. ' +
          'A state with none answers an empty list.',
        params: z.object({ state: PathText('state') }),
        response: { 200: NameList, 304: NotModified, 400: ErrorBody },
      },
    },
    async (request, reply) => {
      const cities = await publicClientsService.listCities(db, request.params.state);
      if (isNotModified(request, reply, { etag: bodyEtag(cities) })) return reply.code(304).send(null);
      return cities;
    },
  );

  app.get(
    '/client/:state/:city',
    {
      schema: {
        tags,
        summary: 'Find a town by state and city',
        description:
          "The town's ClientID, and TokenValid: whether the request carries a live session (Authorization: " +
          'Bearer) allowed to administer it. `state` is a name or USPS abbreviation; `city` is matched ' +
          "without regard to case, and a renamed town's earlier name still finds it. 404 for an unknown " +
          'or inactive town.',
        params: z.object({ state: PathText('state'), city: PathText('city') }),
        response: { 200: ClientLookup, 304: NotModified, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const lookup = await publicClientsService.lookup(
        db,
        request.params.state,
        request.params.city,
        request.user,
      );
      reply.header('vary', 'Authorization');
      const validators = { etag: bodyEtag(lookup), cacheControl: 'private, no-cache' };
      if (isNotModified(request, reply, validators)) return reply.code(304).send(null);
      return lookup;
    },
  );

  app.get(
    '/client/:id',
    {
      schema: {
        tags,
        summary: "A town's public record",
        description:
          'The municipality record (banner, payment link, city, state, status…). Inactive towns answer ' +
          '404, except to a provider administrator (Authorization: Bearer) asking with `showinactive=true`.',
        params: z.object({ id: IdParam }),
        querystring: z.object({
          showinactive: z
            .enum(['true', 'false', '1', '0', ''], { error: 'showinactive must be true or false' })
            .optional(),
        }),
        response: { 200: PublicClient, 304: NotModified, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const showInactive = request.query.showinactive === 'true' || request.query.showinactive === '1';
      const client = await publicClientsService.getById(db, request.params.id, {
        actor: request.user,
        showInactive,
      });
      const validators = {
        etag: bodyEtag(client),
        cacheControl: client.IsActive ? 'public, no-cache' : 'private, no-cache',
      };
      // The same URL is a 404 to everyone else when the town is inactive.
      reply.header('vary', 'Authorization');
      if (isNotModified(request, reply, validators)) return reply.code(304).send(null);
      return client;
    },
  );
};
