import fp from 'fastify-plugin';
import { createParcelsService } from './parcels.service.ts';

/**
 * The parcel layers' service and its indexes, made with the app. With warming on (as for the search
 * indexes), the large layers' indexes are built once the app is ready, and the node is not ready until
 * they are (or the readiness cap has passed): a cold node would have kept a county's first map or
 * abutters request waiting while it built.
 */
export const parcelsPlugin = fp(async (app) => {
  const parcels = createParcelsService(app.config.townCacheMs);
  app.decorate('parcels', parcels);
  if (app.config.searchIndex.warm)
    app.addHook('onReady', async () => {
      const warm = parcels
        .warm(app.database.db, app.config.searchIndex.awaitParcels)
        .catch((err: unknown) => app.log.warn({ err }, 'parcel index warm-up failed'));
      app.readiness.holdUntil(warm);
    });
});
