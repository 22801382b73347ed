import path from 'node:path';
import { z } from 'zod';

/*
 * The only reader of process.env. Every setting is validated once at start-up; a bad value stops the
 * process with a list of everything that is wrong (not just the first problem).
 */

const bool = (def: boolean) =>
  z
    .enum(['0', '1', 'true', 'false', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? def : v === '1' || v === 'true' || v === 'yes'));

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
  TRUST_PROXY: bool(false),
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
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  EXPORT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  WEB_DIST: z.string().optional(),
  SEARCH_INDEX: bool(true),
  SEARCH_INDEX_WARM: bool(true),
  SEARCH_INDEX_MEMORY_MB: z.coerce.number().int().min(1).default(320),
  SEARCH_INDEX_AWAIT_PARCELS: z.coerce.number().int().min(0).default(50_000),
  ROLL_RETIRE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  demo: boolean;
  providerName: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  trustProxy: boolean;
  corsOrigins: string[];
  hsts: boolean;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  requireTotpForProvider: boolean;
  publicRateLimitPerMinute: number;
  exportRateLimitPerMinute: number;
  /** Folder of the built web app; null serves the API only. */
  webDist: string | null;
  /** In-process search indexes of published rolls (features/search/roll-index); off: every search is SQL. */
  searchIndex: {
    enabled: boolean;
    /** Build the indexes of the largest active rolls in the background at start. */
    warm: boolean;
    memoryMb: number;
    /** Rolls up to this many parcels are indexed before their first search answers; larger ones use SQL meanwhile. */
    awaitParcels: number;
  };
  /**
   * How long a replaced roll stays readable after a publish swaps in its successor: readers that looked
   * up the town just before the swap still find their rows. 0 drops it at once.
   */
  rollRetireSeconds: number;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    demo: e.PORTAL_DEMO,
    providerName: e.PROVIDER_NAME,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    hsts: e.HSTS,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    requireTotpForProvider: e.REQUIRE_TOTP_FOR_PROVIDER,
    publicRateLimitPerMinute: e.PUBLIC_RATE_LIMIT_PER_MINUTE,
    exportRateLimitPerMinute: e.EXPORT_RATE_LIMIT_PER_MINUTE,
    webDist: e.WEB_DIST === '' ? null : path.resolve(e.WEB_DIST ?? defaultWebDist),
    searchIndex: {
      enabled: e.SEARCH_INDEX,
      warm: e.SEARCH_INDEX_WARM,
      memoryMb: e.SEARCH_INDEX_MEMORY_MB,
      awaitParcels: e.SEARCH_INDEX_AWAIT_PARCELS,
    },
    rollRetireSeconds: e.ROLL_RETIRE_SECONDS,
  };
}

/**
 * Defaults for tests: API only, quiet, no demo, no search index warming at start, and a replaced roll
 * dropped at once (a test reads the database right after a publish).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      PORTAL_DEMO: '0',
      LOG_LEVEL: 'silent',
      WEB_DIST: '',
      SEARCH_INDEX_WARM: '0',
      ROLL_RETIRE_SECONDS: '0',
    }),
    ...overrides,
  };
}
