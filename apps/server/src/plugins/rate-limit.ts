import { isIP } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/database.ts';
import { tooManyRequests } from '../errors.ts';

/*
 * Per-address request limits kept in the database, so every API node behind a load balancer counts
 * against the same budget and a restart forgets nothing.
 *
 * Each request costs one statement: an upsert of the address's row, which holds the count of the current
 * one-minute window and of the previous one. The estimate `previous × (share of the window still ahead)
 * + current` is the classic sliding-window approximation: no burst of 2× the limit at a window boundary,
 * and no per-request rows.
 */

export type RateLimitBucket = 'public' | 'files' | 'export';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which per-address budget a route spends; 'none' exempts it. Routes without it are classified by URL. */
    rateLimit?: RateLimitBucket | 'none';
  }
}

const WINDOW_SECONDS = 60;
/** Images arrive up to 50 per results page, so their budget is a multiple of the public one. */
const FILES_MULTIPLIER = 10;

export interface RateLimitDecision {
  allowed: boolean;
  /** Requests counted over the sliding minute, this one included. */
  estimate: number;
  retryAfterSeconds: number;
}

export const rateLimitRepository = {
  /**
   * Counts one request and returns this window's count, the previous window's, and how far into this
   * window we are (database clock, so every node agrees). One statement, one index lookup.
   */
  async hit(db: Executor, bucket: string, key: string) {
    const rows = await queryRows<{ hits: number; prev: number; elapsed: number }>(
      db,
      sql`insert into rate_limit_hits as r (bucket, key, window_start, hits, prev_hits)
          values (${bucket}, ${key}, date_trunc('minute', now()), 1, 0)
          on conflict (bucket, key) do update set
            prev_hits = case
              when r.window_start = excluded.window_start then r.prev_hits
              when r.window_start = excluded.window_start - interval '1 minute' then r.hits
              else 0 end,
            hits = case when r.window_start = excluded.window_start then r.hits + 1 else 1 end,
            window_start = excluded.window_start
          returning hits, prev_hits as prev, extract(epoch from (now() - window_start))::float8 as elapsed`,
    );
    return rows[0]!;
  },

  async deleteOld(db: Executor) {
    await db.execute(sql`delete from rate_limit_hits where window_start < now() - interval '2 minutes'`);
  },
};

/** The decision for one request, from the window counts (pure, so the arithmetic is tested directly). */
export function decide(hits: number, prev: number, elapsed: number, limit: number): RateLimitDecision {
  const e = Math.min(Math.max(elapsed, 0), WINDOW_SECONDS);
  const ahead = (WINDOW_SECONDS - e) / WINDOW_SECONDS;
  const estimate = prev * ahead + hits;
  if (estimate <= limit) return { allowed: true, estimate, retryAfterSeconds: 0 };
  let wait: number;
  if (hits <= limit && prev > 0) {
    // Within this window, as the previous window's weight fades.
    wait = WINDOW_SECONDS - e - ((limit - hits) * WINDOW_SECONDS) / prev;
  } else {
    // Only once this window is the previous one and has faded enough.
    wait = WINDOW_SECONDS - e + WINDOW_SECONDS * Math.max(0, 1 - limit / hits);
  }
  return { allowed: false, estimate, retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
}

/**
 * The key for an address: IPv4 as is; IPv6 by its /64 prefix, because one subscriber usually holds a
 * whole /64 and could otherwise rotate addresses to reset the count.
 */
export function addressKey(ip: string): string {
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4mapped) return v4mapped[1]!;
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const EXPORT_URL = /\/export(\/|\?|$)|\.csv(\?|$)|[?&]format=csv(&|$)/i;
const SEARCH_URL = /^\/api\/(propertysearch|search)\//i;

/** Which budget a request spends, or null for none (admin writes, login, health, docs). */
export function classify(request: FastifyRequest): RateLimitBucket | null {
  const configured = request.routeOptions.config?.rateLimit;
  if (configured === 'none') return null;
  if (configured) return configured;
  const url = request.url;
  if (!url.startsWith('/api/')) return null;
  if (EXPORT_URL.test(url)) return 'export';
  if (url.startsWith('/api/docs') || url.startsWith('/api/openapi.json')) return null;
  const read = request.method === 'GET' || request.method === 'HEAD';
  if (read && url.startsWith('/api/files/')) return 'files';
  if (read || (request.method === 'POST' && SEARCH_URL.test(url))) return 'public';
  return null;
}

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const limits: Record<RateLimitBucket, number> = {
      public: app.config.publicRateLimitPerMinute,
      files: app.config.publicRateLimitPerMinute * FILES_MULTIPLIER,
      export: app.config.exportRateLimitPerMinute,
    };
    const db = app.database.db;

    app.addHook('onRequest', async (request, reply) => {
      const bucket = classify(request);
      if (!bucket) return;
      let decision: RateLimitDecision;
      try {
        const { hits, prev, elapsed } = await rateLimitRepository.hit(db, bucket, addressKey(request.ip));
        decision = decide(hits, prev, elapsed, limits[bucket]);
      } catch (err) {
        // The limiter protects the service; it must not take it down when the database hiccups.
        request.log.warn({ err }, 'rate limiter unavailable; request allowed');
        return;
      }
      reply.header('ratelimit-policy', `${limits[bucket]};w=${WINDOW_SECONDS}`);
      if (!decision.allowed) {
        request.log.info({ bucket, ip: request.ip }, 'rate limit reached');
        throw tooManyRequests(
          decision.retryAfterSeconds,
          bucket === 'export'
            ? 'Too many exports from your address; try again later'
            : 'Too many requests from your address; try again later',
        );
      }
    });

    const timer = setInterval(() => {
      rateLimitRepository.deleteOld(db).catch((err) => app.log.warn({ err }, 'rate-limit cleanup failed'));
    }, WINDOW_SECONDS * 1000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'rate-limit', dependencies: ['error-handler'] },
);
