import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after this plugin, as `{ method, url }` (HEAD twins left out). */
    routeInventory: RegisteredRoute[];
  }
}

/**
 * Records the API surface as it is built, so the access-control and fuzzing tests can walk every route
 * and fail when one is added without an entry in their tables.
 */
export const routeInventoryPlugin = fp(
  async (app: FastifyInstance) => {
    const routes: RegisteredRoute[] = [];
    app.decorate('routeInventory', routes);
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        routes.push({ method, url: route.url });
      }
    });
  },
  { name: 'route-inventory' },
);
