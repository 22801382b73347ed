import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../errors.ts';
import { auditRoutes } from './audit/audit.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { twoFactorRoutes } from './auth/two-factor.routes.ts';
import { backupRoutes } from './backup/backup.routes.ts';
import { comparablesRoutes } from './comparables/comparables.routes.ts';
import { clientsAdminRoutes } from './clients/clients.admin.routes.ts';
import { clientsProviderRoutes } from './clients/clients.provider.routes.ts';
import { clientsPublicRoutes } from './clients/clients.public.routes.ts';
import { contactsRoutes } from './contacts/contacts.routes.ts';
import { filesRoutes } from './files/files.routes.ts';
import { parcelLayerRoutes, parcelsRoutes } from './parcels/parcels.routes.ts';
import { propertiesRoutes } from './properties/properties.routes.ts';
import { rollPublishingRoutes } from './rolls/roll-publishing.routes.ts';
import { searchRoutes } from './search/search.routes.ts';
import { usersRoutes } from './users/users.routes.ts';

/**
 * Every feature's routes, mounted under /api. One line per feature: a route file registers itself
 * nowhere else, so this list is the whole API surface (the access-control matrix test walks it).
 */
export const registerFeatures: FastifyPluginAsyncZod = async (app) => {
  // Feature registrations (keep sorted by feature):
  await app.register(auditRoutes);
  await app.register(authRoutes);
  await app.register(twoFactorRoutes);
  await app.register(backupRoutes);
  await app.register(clientsAdminRoutes);
  await app.register(clientsProviderRoutes);
  await app.register(clientsPublicRoutes);
  await app.register(comparablesRoutes);
  await app.register(contactsRoutes);
  await app.register(filesRoutes);
  await app.register(parcelsRoutes);
  await app.register(parcelLayerRoutes);
  await app.register(propertiesRoutes);
  await app.register(rollPublishingRoutes);
  await app.register(searchRoutes);
  await app.register(usersRoutes);

  // Unknown /api paths are JSON 404s even for methods the SPA fallback ignores.
  app.all('/*', { schema: { hide: true } }, async () => {
    throw notFound('No such API endpoint');
  });
};
