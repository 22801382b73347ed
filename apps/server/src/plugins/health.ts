import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ping } from '../db/database.ts';

const Health = z.object({ status: z.enum(['ok']) });

/** /healthz: the process answers. /readyz: and the database does too (load balancers use this one). */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: Health } } }, async () => ({
    status: 'ok' as const,
  }));
  app.get(
    '/readyz',
    {
      schema: { hide: true, response: { 200: Health, 503: z.object({ status: z.literal('unavailable') }) } },
    },
    async (_req, reply) => {
      try {
        await ping(app.database.db);
        return { status: 'ok' as const };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );
};
