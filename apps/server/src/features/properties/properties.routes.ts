import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccountText, ErrorBody, FullProperty, safeText } from '@opp/contracts';
import { compiledResponses } from '../../lib/response-serializer.ts';
import { isNotModified } from '../../plugins/conditional-get.ts';
import { createPropertiesService } from './properties.service.ts';

const FullPropertyQuery = z.object({
  city: safeText(100).pipe(z.string().trim().min(1, { message: 'city is required' })),
  state: safeText(100).pipe(z.string().trim().min(1, { message: 'state is required' })),
});

/** Spec §7 public property page call. */
export const propertiesRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const propertiesService = createPropertiesService(app.config.townCacheMs);

  app.get(
    '/fullproperty/:account',
    {
      serializerCompiler: compiledResponses,
      schema: {
        tags: ['Public'],
        summary: "A parcel's full record",
        description:
          'The full spec §3 record of `account` in the published roll of the town named by `city` and ' +
          '`state` (state name or USPS abbreviation, any case). `LastUpdated` says when the roll was ' +
          'published. 404 when the town is unknown or inactive, or has no such account. Sends ETag and ' +
          'Last-Modified and answers 304 to a matching If-None-Match / If-Modified-Since.',
        params: z.object({ account: AccountText }),
        querystring: FullPropertyQuery,
        response: {
          200: FullProperty,
          304: z.null().describe('Not modified'),
          400: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const town = await propertiesService.townOf(db, request.query.state, request.query.city);
      const answer = await propertiesService.fullProperty(db, town, request.params.account);
      if (isNotModified(request, reply, answer)) return reply.code(304).send(null);
      // Already serialized by the response schema's compiled serializer (properties.service.ts): text
      // with a JSON content type is sent as it is. The route's types know only the object.
      return reply.type('application/json; charset=utf-8').send(answer.json as unknown as FullProperty);
    },
  );
};
