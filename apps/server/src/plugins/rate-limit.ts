import { isIP } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/database.ts';
import { tooManyRequests } from '../errors.ts';

/*
 * Request limits per client address (per signed-in account for admin writes and uploads) kept in the
 * database, so every API node behind a load balancer counts against the same budget and a restart
 * forgets (almost) nothing.
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

/**
 * The budgets. Public reads cost the portal little (in-process indexes, validators and 304s), so their
 * budget is generous: a library or a town office behind one address is several people. What costs more
 * keeps a strict one: CSV export per address, and per signed-in user their writes and image uploads
 * (login has its own throttle, features/auth/login-throttle.ts). The map's answers (a parcel's shape, a
 * map box, an abutters list) cost in proportion to what they carry, from a few hundred bytes to 1.4 MB
 * for a whole town's box: their budget (`map`) is counted in kilobytes of answer, not in requests, so
 * a client asking for whole towns over and over is refused long before it slows everyone else down,
 * while one looking at a street's parcels is not.
 */
export type RateLimitBucket = 'public' | 'files' | 'export' | 'pages' | 'admin' | 'upload' | 'map';

/** Budgets weighted by the size of their answers: one unit per kilobyte begun (a request costs at least one). */
const BY_SIZE: ReadonlySet<RateLimitBucket> = new Set(['map']);
const SIZE_UNIT_BYTES = 1024;

/** Budgets counted per signed-in user rather than per address (an office shares one address). */
const PER_USER: ReadonlySet<RateLimitBucket> = new Set(['admin', 'upload']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which budget a route spends; 'none' exempts it. Routes without it are classified by their pattern. */
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

/** Route patterns that stream a whole result as a file. */
const EXPORT_ROUTE = /(\/export|\.csv)$/;
const SEARCH_ROUTE = /^\/api\/(propertysearch|search)\//;

/**
 * Which budget a request spends, or null for none (login, the docs, health, the web app's files).
 * Decided by the route the router matched (its pattern), never by the raw URL: a trailing slash,
 * percent-encoded letters (`export%2Ecsv`) or an absolute-form request line (`GET http://x/api/…`)
 * reach the same route and so spend the same budget.
 */
export function classify(request: FastifyRequest): RateLimitBucket | null {
  const configured = request.routeOptions.config?.rateLimit;
  if (configured === 'none') return null;
  if (configured) return configured;
  const read = request.method === 'GET' || request.method === 'HEAD';
  const route = request.routeOptions.url;
  if (route === undefined) {
    // No route: the not-found handler answers, which for a page of the web app (a town's page looks
    // the town up and paints it) is work; anything else is a 404 that scanning spends.
    return read && !isApiPath(request.url) ? 'pages' : 'public';
  }
  if (!route.startsWith('/api/')) return null;
  if (EXPORT_ROUTE.test(route)) return 'export';
  if (route.startsWith('/api/docs') || route === '/api/openapi.json') return null;
  if (read) return route.startsWith('/api/files/') ? 'files' : 'public';
  if (request.method === 'POST' && SEARCH_ROUTE.test(route)) return 'public';
  return request.user ? 'admin' : null;
}

function isApiPath(url: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://portal.invalid').pathname;
  } catch {
    return true;
  }
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** The size of an answer as sent (a stream, which no route of a size-weighted budget sends, counts nothing). */
function byteLength(payload: unknown): number {
  if (typeof payload === 'string') return Buffer.byteLength(payload);
  if (payload instanceof Uint8Array) return payload.byteLength;
  return 0;
}

/** Whose budget the request spends: the signed-in user's for per-user budgets, else the address's. */
function budgetKey(request: FastifyRequest, bucket: RateLimitBucket): string {
  if (PER_USER.has(bucket) && request.user) return `user:${request.user.id}`;
  return addressKey(request.ip);
}

const REFUSALS: Record<RateLimitBucket, string> = {
  public: 'Too many requests from your address; try again later',
  files: 'Too many requests from your address; try again later',
  pages: 'Too many requests from your address; try again later',
  export: 'Too many exports from your address; try again later',
  admin: 'Too many changes from your account in a short time; try again later',
  upload: 'Too many uploads from your account in a short time; try again later',
  map: 'Too much of the map asked for from your address; try again later',
};

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

  /**
   * Adds `units` to what `key` has spent, without deciding anything: the cost of an answer known only
   * once it is made. Sent with the next flush; the next request of `key` is decided with it.
   */
  charge(bucket: string, key: string, units: number) {
    if (units <= 0) return;
    const view = this.#views.get(`${bucket}\u0000${key}`);
    if (!view) return;
    view.pending += units;
    view.lastSeen = this.clock();
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
      pages: app.config.pageRateLimitPerMinute,
      admin: app.config.adminWriteRateLimitPerMinute,
      upload: app.config.uploadRateLimitPerMinute,
      map: app.config.mapRateLimitKbPerMinute,
    };
    const db = app.database.db;
    const counter = new RateLimitCounter(db);

    app.addHook('onRequest', async (request, reply) => {
      const bucket = classify(request);
      if (!bucket) return;
      let decision: RateLimitDecision;
      try {
        decision = await counter.count(bucket, budgetKey(request, bucket), limits[bucket]);
      } catch (err) {
        // The limiter protects the service; it must not take it down when the database hiccups.
        request.log.warn({ err }, 'rate limiter unavailable; request allowed');
        return;
      }
      reply.header('ratelimit-policy', `${limits[bucket]};w=${WINDOW_SECONDS}`);
      if (!decision.allowed) {
        request.log.info({ bucket, ip: request.ip, userId: request.user?.id }, 'rate limit reached');
        throw tooManyRequests(decision.retryAfterSeconds, REFUSALS[bucket]);
      }
    });

    // A budget weighted by size: the request counted one unit above; its answer, now made, the rest.
    app.addHook('onSend', async (request, reply, payload) => {
      const bucket = classify(request);
      if (!bucket || !BY_SIZE.has(bucket) || reply.statusCode === 429) return payload;
      const units = Math.ceil(byteLength(payload) / SIZE_UNIT_BYTES);
      counter.charge(bucket, budgetKey(request, bucket), units - 1);
      return payload;
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
