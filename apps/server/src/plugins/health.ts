import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ping } from '../db/database.ts';

/**
 * How long a starting node waits for its warm-up (its large rolls' and parcel layers' indexes) before it
 * takes traffic anyway, searching in SQL and building a layer's index on its first request meanwhile.
 */
const READY_WAIT_MS = 120_000;

/**
 * Work a node finishes before it takes traffic (its large rolls' and parcel layers' indexes),
 * each with a cap: past it the node is ready anyway, and serves as it can meanwhile.
 */
export class Readiness {
  readonly #pending = new Set<Promise<void>>();

  /** Not ready until `work` settles (however it ends), or `capMs` has passed. */
  holdUntil(work: Promise<unknown>, capMs = READY_WAIT_MS): void {
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, capMs).unref()));
    const held: Promise<void> = Promise.race([work.then(noop, noop), cap]).then(() => {
      clearTimeout(timer);
      this.#pending.delete(held);
    });
    this.#pending.add(held);
  }

  get ready(): boolean {
    return this.#pending.size === 0;
  }

  /** Resolves once nothing holds the node back (at once when nothing does). */
  async whenReady(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }
}

const noop = () => {};
const Health = z.object({ status: z.enum(['ok']) });
const Unavailable = z.object({ status: z.enum(['unavailable', 'starting']) });

/**
 * /healthz: the process answers. /readyz (load balancers use this one): and the database does too, and
 * the node has finished what it does before taking traffic (Readiness); 503 until then.
 */
export const healthRoutes: FastifyPluginAsyncZod = fp(async (app) => {
  app.decorate('readiness', new Readiness());
  app.get('/healthz', { schema: { hide: true, response: { 200: Health } } }, async () => ({
    status: 'ok' as const,
  }));
  app.get(
    '/readyz',
    { schema: { hide: true, response: { 200: Health, 503: Unavailable } } },
    async (_req, reply) => {
      if (!app.readiness.ready) return reply.status(503).send({ status: 'starting' as const });
      try {
        await ping(app.database.db);
        return { status: 'ok' as const };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );
});
