import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../errors.ts';

/**
 * Every feature's routes, mounted under /api. One line per feature: a route file registers itself
 * nowhere else, so this list is the whole API surface (the access-control matrix test walks it).
 */
export const registerFeatures: FastifyPluginAsyncZod = async (app) => {
  // Feature registrations (keep sorted by feature):

  // Unknown /api paths are JSON 404s even for methods the SPA fallback ignores.
  app.all('/*', { schema: { hide: true } }, async () => {
    throw notFound('No such API endpoint');
  });
};
