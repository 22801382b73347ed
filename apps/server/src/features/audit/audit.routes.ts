import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditPage, AuditQuery, ErrorBody } from '@opp/contracts';
import { requireUser } from '../../plugins/auth.ts';
import { auditService } from './audit.service.ts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit',
    {
      schema: {
        tags: ['Audit'],
        summary:
          'The audit log of admin changes (provider admins: every town; Super Administrators: their town)',
        security: [{ bearerAuth: [] }],
        querystring: AuditQuery,
        response: { 200: AuditPage, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => auditService.list(app.database.db, requireUser(request), request.query),
  );
};
