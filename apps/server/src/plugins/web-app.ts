import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from '@opp/contracts';

/**
 * One port for the whole portal: /api is the API, every other path is the single-page app
 * (index.html for client-side routes, hashed assets cached for a year).
 */
export const webAppPlugin = fp(
  async (app: FastifyInstance) => {
    const dist = app.config.webDist;
    const hasWeb = dist !== null && fs.existsSync(path.join(dist, 'index.html'));
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: dist,
        wildcard: false,
        index: false,
        setHeaders(res, filePath) {
          res.header(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'no-cache',
          );
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      if (
        url === '/api' ||
        url.startsWith('/api/') ||
        !hasWeb ||
        (request.method !== 'GET' && request.method !== 'HEAD')
      ) {
        const body: ErrorBody = {
          statusCode: 404,
          code: 'not_found',
          message: 'Not found',
          error: 'Not found',
        };
        return reply.status(404).send(body);
      }
      // A missing asset is a real 404; any other path is a client-side route.
      if (url.startsWith('/assets/')) return reply.status(404).type('text/plain').send('Not found');
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web-app' },
);
