import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '@opp/contracts';
import { notFound } from '../../errors.ts';
import {
  LOCAL_TOKEN_HEADER,
  newLocalToken,
  removeLocalAdmin,
  sameToken,
  snapshotOf,
  writeLocalAdmin,
} from './backup.service.ts';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** The connection comes from this machine: loopback, or from the very address the server listens on. */
function isLocal(request: FastifyRequest): boolean {
  const remote = request.socket.remoteAddress ?? '';
  return LOOPBACK.test(remote) || remote === request.socket.localAddress;
}

/**
 * POST /api/internal/backup: a snapshot of the embedded database for `portal backup` on the same
 * machine (see backup.service.ts). To anyone else (another machine, no token, a wrong token, or a
 * server on PostgreSQL) it does not exist: the same 404 as any unknown path.
 */
export const backupRoutes: FastifyPluginAsyncZod = async (app) => {
  const dataDir = app.database.dataDir ?? null;
  const enabled = dataDir !== null && typeof app.database.snapshot === 'function';
  const token = newLocalToken();

  app.post(
    '/internal/backup',
    {
      schema: {
        hide: true,
        response: {
          200: z.unknown().describe('application/gzip: the data folder as a tarball'),
          404: ErrorBody,
        },
      },
      config: { rateLimit: 'none' },
    },
    async (request, reply) => {
      const given = request.headers[LOCAL_TOKEN_HEADER];
      if (!enabled || !isLocal(request) || !sameToken(token, typeof given === 'string' ? given : undefined))
        throw notFound('No such API endpoint');
      const started = Date.now();
      const bytes = await snapshotOf(app.database);
      request.log.info({ bytes: bytes.length, ms: Date.now() - started }, 'database snapshot taken');
      return reply
        .type('application/gzip')
        .header('cache-control', 'no-store')
        .header('content-disposition', 'attachment; filename="portal-backup.tar.gz"')
        .send(Buffer.from(bytes));
    },
  );

  if (enabled) {
    app.addHook('onListen', async () => {
      const address = app.server.address();
      if (!address || typeof address !== 'object') return;
      const host =
        address.family === 'IPv6'
          ? `[${address.address === '::' ? '::1' : address.address}]`
          : address.address === '0.0.0.0'
            ? '127.0.0.1'
            : address.address;
      writeLocalAdmin(dataDir, { pid: process.pid, url: `http://${host}:${address.port}`, token });
    });
    app.addHook('onClose', async () => removeLocalAdmin(dataDir));
  }
};
