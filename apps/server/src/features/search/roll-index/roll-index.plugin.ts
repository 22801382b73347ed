import fp from 'fastify-plugin';
import { RollIndexRegistry } from './roll-index.registry.ts';

/**
 * The roll index registry's life: made with the app, its largest rolls warmed once the app is ready (the
 * node is not ready until the large ones are built, or the readiness cap has passed), closed with it.
 */
export const rollIndexPlugin = fp(async (app) => {
  const config = app.config.searchIndex;
  const registry = config.enabled
    ? new RollIndexRegistry(app.database.db, {
        awaitUpTo: config.awaitParcels,
        memoryBytes: config.memoryMb * 1024 * 1024,
        // Small enough that the rows a build thread reads from each batch die young (batches of 20,000
        // outgrew V8's young generation and piled up: a county's build peaked 0.3-0.6 GB higher), and
        // that the embedded engine answers other queries between batches.
        batch: 2_000,
        log: app.log,
      })
    : null;
  app.decorate('rollIndexes', registry);
  if (!registry) return;
  if (config.warm)
    app.addHook('onReady', async () => {
      // In the background: the node answers /healthz meanwhile, and its /readyz says when it is done.
      const warm = registry
        .warm()
        .catch((err: unknown) => app.log.warn({ err }, 'search index warm-up failed'));
      app.readiness.holdUntil(warm);
    });
  app.addHook('onClose', () => registry.close());
});
