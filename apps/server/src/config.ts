import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { SERVER_ROOT } from './paths.ts';

/*
 * The only reader of process.env. Every setting is validated once at start-up; a bad value stops the
 * process with a list of everything that is wrong (not just the first problem).
 */

const bool = (def: boolean) =>
  z
    .enum(['0', '1', 'true', 'false', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? def : v === '1' || v === 'true' || v === 'yes'));

/** OpenStreetMap's standard tiles, shown under the parcel maps unless MAP_TILES_URL says otherwise. */
export const DEFAULT_MAP_TILES_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8086),
  HOST: z.string().min(1).default('localhost'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
      message: 'must start with postgres:// or postgresql:// (leave unset for the embedded database)',
    }),
  PORTAL_DEMO: bool(true),
  PROVIDER_NAME: z.string().min(1).max(100).default('Open Property Portal'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v ?? '');
      if (parsed === undefined)
        ctx.addIssue({
          code: 'custom',
          message:
            "must be 0 (no proxy), the number of proxies in front of the portal (1 for one nginx), or a comma-separated list of the proxies' addresses or networks (10.0.0.1, 10.0.0.0/8)",
        });
      return parsed ?? false;
    }),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  HSTS: bool(false),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  REQUIRE_TOTP_FOR_PROVIDER: bool(false),
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(3000),
  EXPORT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  PAGE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  ADMIN_WRITE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  UPLOAD_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  MAP_RATE_LIMIT_KB_PER_MINUTE: z.coerce.number().int().min(1).default(20_000),
  WEB_DIST: z.string().optional(),
  SEARCH_INDEX: bool(true),
  SEARCH_INDEX_WARM: bool(true),
  SEARCH_INDEX_MEMORY_MB: z.coerce.number().int().min(1).default(320),
  SEARCH_INDEX_AWAIT_PARCELS: z.coerce.number().int().min(0).default(50_000),
  ROLL_RETIRE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  TOWN_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  MAP_TILES_URL: z
    .string()
    .default(DEFAULT_MAP_TILES_URL)
    .refine((v) => v === '' || /^https?:\/\/[^/\s]+\/\S*\{z\}\S*\{x\}\S*\{y\}/.test(v), {
      message:
        'must be empty (parcels only, no base map) or a tile address with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    }),
});

/** The settings as the code reads them, from the validated environment. */
const ConfigSchema = EnvSchema.transform((e) => ({
  port: e.PORT,
  host: e.HOST,
  dataDir: path.resolve(e.DATA_DIR),
  databaseUrl: e.DATABASE_URL,
  demo: e.PORTAL_DEMO,
  providerName: e.PROVIDER_NAME,
  logLevel: e.LOG_LEVEL,
  /**
   * Which X-Forwarded-For hops to believe (Fastify's `trustProxy`): false for none, a hop count (the
   * proxies in front of the portal), or the proxies' addresses and networks.
   */
  trustProxy: e.TRUST_PROXY,
  corsOrigins: e.CORS_ORIGINS,
  hsts: e.HSTS,
  sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
  sessionMaxHours: e.SESSION_MAX_HOURS,
  requireTotpForProvider: e.REQUIRE_TOTP_FOR_PROVIDER,
  publicRateLimitPerMinute: e.PUBLIC_RATE_LIMIT_PER_MINUTE,
  exportRateLimitPerMinute: e.EXPORT_RATE_LIMIT_PER_MINUTE,
  /** Server-rendered town pages (and the app's other pages), per address. */
  pageRateLimitPerMinute: e.PAGE_RATE_LIMIT_PER_MINUTE,
  /** Writes by a signed-in user (admin changes, logout), per user. */
  adminWriteRateLimitPerMinute: e.ADMIN_WRITE_RATE_LIMIT_PER_MINUTE,
  /** Image uploads, per user (each one is decoded and re-encoded). */
  uploadRateLimitPerMinute: e.UPLOAD_RATE_LIMIT_PER_MINUTE,
  /**
   * The map's answers (parcel shapes, map boxes, abutters lists) per address, weighted by their size:
   * kilobytes of answers a minute.
   */
  mapRateLimitKbPerMinute: e.MAP_RATE_LIMIT_KB_PER_MINUTE,
  /** Folder of the built web app; null serves the API only. */
  webDist: e.WEB_DIST === '' ? null : path.resolve(e.WEB_DIST ?? path.resolve(SERVER_ROOT, '../web/dist')),
  /** In-process search indexes of published rolls (features/search/roll-index); off: every search is SQL. */
  searchIndex: {
    enabled: e.SEARCH_INDEX,
    /** Build the indexes of the largest active rolls, and of the large parcel layers, in the background at start. */
    warm: e.SEARCH_INDEX_WARM,
    memoryMb: e.SEARCH_INDEX_MEMORY_MB,
    /**
     * Rolls up to this many parcels are indexed before their first search answers; larger ones use SQL
     * meanwhile. Parcel layers of more shapes than this are indexed at start (with `warm`).
     */
    awaitParcels: e.SEARCH_INDEX_AWAIT_PARCELS,
  },
  /**
   * How long a replaced roll stays readable after a publish swaps in its successor: readers that looked
   * up the town just before the swap still find their rows. 0 drops it at once.
   */
  rollRetireSeconds: e.ROLL_RETIRE_SECONDS,
  /**
   * How long a node keeps a town it looked up for the property page: a publish or an edit shows on
   * every node within this time. 0: looked up on every request.
   */
  townCacheMs: e.TOWN_CACHE_MS,
  /** The base map under the parcel maps (a {z}/{x}/{y} tile address); empty: parcels only. */
  mapTilesUrl: e.MAP_TILES_URL,
}));

export type TrustProxy = false | number | string[];

/**
 * TRUST_PROXY: `0`/`false`/empty trusts no X-Forwarded-For; a number trusts that many hops from the
 * right (`1`/`true`: the one nginx in front; before 2026-11-27 `1` trusted every hop, so a client could
 * name its own address); otherwise a comma-separated list of the proxies' addresses or networks, whose
 * hops are skipped from the right. Undefined when the value is none of these.
 */
export function parseTrustProxy(value: string): TrustProxy | undefined {
  const v = value.trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false' || v === 'no') return false;
  if (v === 'true' || v === 'yes') return 1;
  if (/^\d+$/.test(v)) return Number(v) <= 10 ? Number(v) : undefined;
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const valid = (entry: string) => {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    if (!family || rest.length) return false;
    if (bits === undefined) return true;
    return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
  };
  return list.length > 0 && list.every(valid) ? list : undefined;
}

/**
 * Fastify's `trustProxy` for the setting. A hop count is given as proxy-addr's trust function (the
 * nearest `hops` addresses, the socket's peer first, are proxies): this Fastify version takes a bare
 * number as trusting no hop at all, because a client that reaches the portal directly, not through the
 * proxy, could then choose its address. A list of the proxies' addresses has no such gap
 * (docs/operations.md); a hop count is for a portal only the proxies can reach.
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

export type Config = z.output<typeof ConfigSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  return parsed.data;
}

/** testConfig's settings, as the environment of a server process (the browser tests' built server). */
export const TEST_ENV = {
  PORTAL_DEMO: '0',
  LOG_LEVEL: 'silent',
  WEB_DIST: '',
  SEARCH_INDEX_WARM: '0',
  ROLL_RETIRE_SECONDS: '0',
  TOWN_CACHE_MS: '0',
  // Parcels only: tests never fetch map tiles from the internet.
  MAP_TILES_URL: '',
  // Per-user budgets stay out of the way of tests that sign in once and write a thousand times
  // (the route fuzzer); the tests of the limits set their own.
  ADMIN_WRITE_RATE_LIMIT_PER_MINUTE: '1000000',
  UPLOAD_RATE_LIMIT_PER_MINUTE: '1000000',
  // Nor the map's, out of the way of tests that ask for a real town's whole map many times.
  MAP_RATE_LIMIT_KB_PER_MINUTE: '100000000',
} satisfies Record<string, string>;

/**
 * Defaults for tests: API only, quiet, no demo, no search index warming at start, and a replaced roll
 * dropped at once (a test reads the database right after a publish).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig(TEST_ENV), ...overrides };
}
