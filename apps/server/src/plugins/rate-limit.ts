import { isIP } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/database.ts';
import { tooManyRequests } from '../errors.ts';

/*
 * Per-address request limits kept in the database, so every API node behind a load balancer counts
 * against the same budget and a restart forgets (almost) nothing.
 *
 * The database row of an address holds the count of the current one-minute window and of the previous
 * one. The estimate `previous × (share of the window still ahead) + current` is the classic
 * sliding-window approximation: no burst of 2× the limit at a window boundary, and no per-request rows.
 *
 * A request must not cost a database round trip, so each node counts in process and flushes its
 * increments every FLUSH_MS in one statement, whose answer refreshes the node's view of the shared
 * counts. A node decides alone only while its view is fresh (at most STALE_MS old) and the address has
 * spent less than LOCAL_SHARE of its budget; otherwise the request is counted in the database at once
 * and decided on the shared count, exactly as if there were no local counting. The slack this allows:
 * an address far from its limit may be counted up to STALE_MS late on the other nodes; near its limit
 * every request is exact. With N nodes whose views are all stale at once, at most N × LOCAL_SHARE of
 * the budget can be spent before the next synchronous count refuses (no overshoot with two nodes), and
 * increments made in the last FLUSH_MS before a crash are lost.
 */

export type RateLimitBucket = 'public' | 'files' | 'export';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which per-address budget a route spends; 'none' exempts it. Routes without it are classified by URL. */
    rateLimit?: RateLimitBucket | 'none';
  }
}

const WINDOW_SECONDS = 60;
/** How often a node sends the requests it counted locally. */
const FLUSH_MS = 500;
/** A node's view of the shared counts older than this is refreshed before it decides alone. */
const STALE_MS = 2 * FLUSH_MS;
/** A node decides alone only while the address has spent less than this share of its budget. */
const LOCAL_SHARE = 0.5;
/** Addresses unseen for this long are forgotten by the node (the database keeps their counts). */
const IDLE_MS = 2 * WINDOW_SECONDS * 1000;
/** Images arrive up to 50 per results page, so their budget is a multiple of the public one. */
const FILES_MULTIPLIER = 10;

export interface RateLimitDecision {
  allowed: boolean;
  /** Requests counted over the sliding minute, this one included. */
  estimate: number;
  retryAfterSeconds: number;
}

/** Shared counts of one address and budget, as the database answered them. */
interface SharedCount {
  bucket: string;
  key: string;
  hits: number;
  prev: number;
  /** Seconds since the current window started (database clock, so every node agrees). */
  elapsed: number;
}

export const rateLimitRepository = {
  /**
   * Adds `count` requests to each address's current window and returns the counts after it, and how
   * far into the window we are. One statement, one index lookup per address.
   */
  async add(
    db: Executor,
    entries: Array<{ bucket: string; key: string; count: number }>,
  ): Promise<SharedCount[]> {
    if (entries.length === 0) return [];
    return queryRows<SharedCount>(
      db,
      sql`insert into rate_limit_hits as r (bucket, key, window_start, hits, prev_hits)
          select u.bucket, u.key, date_trunc('minute', now()), u.count, 0
            from jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as u(bucket text, key text, count int)
          on conflict (bucket, key) do update set
            prev_hits = case
              when r.window_start = excluded.window_start then r.prev_hits
              when r.window_start = excluded.window_start - interval '1 minute' then r.hits
              else 0 end,
            hits = case when r.window_start = excluded.window_start then r.hits + excluded.hits
                        else excluded.hits end,
            window_start = excluded.window_start
          returning bucket, key, hits, prev_hits as prev,
                    extract(epoch from (now() - window_start))::float8 as elapsed`,
    );
  },

  /** Counts one request (and `pending` earlier ones not yet flushed); returns the shared counts. */
  async hit(db: Executor, bucket: string, key: string, count = 1): Promise<SharedCount> {
    const [row] = await this.add(db, [{ bucket, key, count }]);
    return row!;
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

/** A node's view of one address's shared counts, and the requests it counted since. */
interface View {
  hits: number;
  prev: number;
  /** When the current window started, on this node's clock. */
  windowStartMs: number;
  syncedAt: number;
  lastSeen: number;
  /** Requests counted here and not yet in the database. */
  pending: number;
}

/** The in-process side of the limiter: local counting, synchronous counts near the limit, flushes. */
export class RateLimitCounter {
  readonly #views = new Map<string, View>();
  #flushing: Promise<void> | null = null;

  constructor(
    private readonly db: Executor,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts one request of `key` against `limit` and decides it. */
  async count(bucket: string, key: string, limit: number): Promise<RateLimitDecision> {
    const id = `${bucket}\u0000${key}`;
    const now = this.clock();
    let view = this.#views.get(id);
    if (view && now - view.syncedAt <= STALE_MS) {
      const elapsed = (now - view.windowStartMs) / 1000;
      if (elapsed < WINDOW_SECONDS) {
        const local = decide(view.hits + view.pending + 1, view.prev, elapsed, limit);
        if (local.estimate <= limit * LOCAL_SHARE) {
          view.pending++;
          view.lastSeen = now;
          return local;
        }
      }
    }
    if (!view) {
      view = { hits: 0, prev: 0, windowStartMs: now, syncedAt: -Infinity, lastSeen: now, pending: 0 };
      this.#views.set(id, view);
    }
    view.lastSeen = now;
    // This request and those counted here since the last flush go to the database now.
    const count = view.pending + 1;
    view.pending = 0;
    let shared: SharedCount;
    try {
      shared = await rateLimitRepository.hit(this.db, bucket, key, count);
    } catch (err) {
      view.pending += count;
      throw err;
    }
    this.#apply(view, shared);
    return decide(shared.hits, shared.prev, shared.elapsed, limit);
  }

  /** Sends every locally counted request in one statement; its answer refreshes the views. */
  flush(): Promise<void> {
    this.#flushing ??= this.#flush().finally(() => (this.#flushing = null));
    return this.#flushing;
  }

  async #flush() {
    const now = this.clock();
    const batch: Array<{ bucket: string; key: string; count: number; view: View }> = [];
    for (const [id, view] of this.#views) {
      if (view.pending > 0) {
        const [bucket = '', key = ''] = id.split('\u0000');
        batch.push({ bucket, key, count: view.pending, view });
        view.pending = 0;
      } else if (now - view.lastSeen > IDLE_MS) {
        this.#views.delete(id);
      }
    }
    if (batch.length === 0) return;
    try {
      const rows = await rateLimitRepository.add(
        this.db,
        batch.map(({ bucket, key, count }) => ({ bucket, key, count })),
      );
      const byId = new Map(batch.map((b) => [`${b.bucket}\u0000${b.key}`, b.view]));
      for (const row of rows) {
        const view = byId.get(`${row.bucket}\u0000${row.key}`);
        if (view) this.#apply(view, row);
      }
    } catch (err) {
      for (const b of batch) b.view.pending += b.count;
      throw err;
    }
  }

  #apply(view: View, shared: SharedCount) {
    const now = this.clock();
    view.hits = shared.hits;
    view.prev = shared.prev;
    view.windowStartMs = now - shared.elapsed * 1000;
    view.syncedAt = now;
  }
}

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const limits: Record<RateLimitBucket, number> = {
      public: app.config.publicRateLimitPerMinute,
      files: app.config.publicRateLimitPerMinute * FILES_MULTIPLIER,
      export: app.config.exportRateLimitPerMinute,
    };
    const db = app.database.db;
    const counter = new RateLimitCounter(db);

    app.addHook('onRequest', async (request, reply) => {
      const bucket = classify(request);
      if (!bucket) return;
      let decision: RateLimitDecision;
      try {
        decision = await counter.count(bucket, addressKey(request.ip), limits[bucket]);
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

    const flushTimer = setInterval(() => {
      counter.flush().catch((err) => app.log.warn({ err }, 'rate-limit flush failed'));
    }, FLUSH_MS);
    flushTimer.unref();
    const cleanupTimer = setInterval(() => {
      rateLimitRepository.deleteOld(db).catch((err) => app.log.warn({ err }, 'rate-limit cleanup failed'));
    }, WINDOW_SECONDS * 1000);
    cleanupTimer.unref();
    app.addHook('onClose', async () => {
      clearInterval(flushTimer);
      clearInterval(cleanupTimer);
      await counter.flush().catch((err) => app.log.warn({ err }, 'rate-limit flush failed'));
    });
  },
  { name: 'rate-limit', dependencies: ['error-handler'] },
);
