import { configDefaults, defineConfig } from 'vitest/config';
import type { InlineConfig } from 'vitest/node';

/** Server test files that use vi.mock: they run isolated (see the `server` project). */
const SERVER_MOCKING = ['apps/server/src/features/auth/login-throttle.test.ts'];

/**
 * Server test files that never open the configured database: pure logic, the embedded engine's own
 * client, the embedded database's backup. The PostgreSQL run (TEST_DATABASE_URL, scripts/test.mjs)
 * leaves them to the PGlite run rather than repeat them (with synchronous_commit off in test/helpers.ts,
 * that run went from 264 s to 188 s in CI on a slow machine).
 */
const ENGINE_INDEPENDENT = [
  'apps/server/src/db/pglite-client.test.ts',
  'apps/server/src/features/auth/password.test.ts',
  'apps/server/src/features/backup/backup.test.ts',
  'apps/server/src/features/rolls/record-fast-path.test.ts',
  'apps/server/src/features/rolls/record-sources.test.ts',
  'apps/server/src/features/properties/record-codec.test.ts',
  'apps/server/src/lib/*.test.ts',
];
const onPostgres = !!process.env.TEST_DATABASE_URL;

/** What every project that starts the server shares: the server projects and the browser tests. */
const portalUnderTest = {
  environment: 'node',
  // One migrated database, copied for each test file (or each browser test file's portal).
  globalSetup: ['apps/server/test/global-setup.ts'],
  // Passwords hashed at scrypt's N = 2^10 instead of 2^15 (features/auth/password.ts: only when
  // NODE_ENV=test), as Django's test settings swap in a fast hasher: at full cost every hash takes 32 MiB
  // of fresh memory and 60–180 ms, and the API tests hash and verify thousands of times (the route
  // fuzzer alone signs in 1,000 times). password.test.ts still checks the full cost outside a test run.
  env: { TEST_SCRYPT_LOG_N: '10' },
} satisfies InlineConfig;

/** What the two server projects share. */
const serverTest = {
  ...portalUnderTest,
  testTimeout: 30_000,
  hookTimeout: 60_000,
} satisfies InlineConfig;

export default defineConfig({
  test: {
    // Vitest's default on a 2-core machine is one file at a time, yet the API test files spend much of
    // their time waiting (on the PostgreSQL server, on PGlite's worker thread, on timers). The browser tests
    // run two files at a time, the load suite one.
    maxWorkers: 3,
    projects: [
      {
        test: { name: 'contracts', include: ['packages/contracts/**/*.test.ts'], environment: 'node' },
      },
      {
        // The benchmark's own logic (generator, statistics, regression rule); never the benchmark itself.
        // Generating and checking a few thousand records takes seconds when CI's two cores are busy.
        test: { name: 'bench', include: ['bench/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        test: {
          ...serverTest,
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SERVER_MOCKING, ...(onPostgres ? ENGINE_INDEPENDENT : [])],
          // A worker's files share one module graph instead of each importing the app anew (about a
          // second of CPU per file, some 100 CPU-seconds of a run on the embedded engine). Nothing in the
          // server keeps state in a module that one file could leave for another: caches are keyed by
          // the database or by content, as two apps over two databases in one process already need.
          isolate: false,
        },
      },
      {
        // Files that replace a module (vi.mock) need their own module graph.
        test: { ...serverTest, name: 'server-isolated', include: SERVER_MOCKING },
      },
      {
        // The web app's `@/` import alias (apps/web/vite.config.ts) for its component tests.
        resolve: { alias: { '@': new URL('./apps/web/src', import.meta.url).pathname } },
        test: {
          name: 'web',
          include: ['apps/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/testing/setup-tests.ts'],
          // A test may wait for several screens in turn (setup-tests.ts: up to 5 s each when CI is busy).
          testTimeout: 30_000,
        },
      },
      {
        // npm run test:load: faults and load against real server processes (minutes, not seconds).
        test: {
          name: 'load',
          include: ['apps/server/test/load/**/*.load.ts'],
          environment: 'node',
          testTimeout: 1_200_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          ...portalUnderTest,
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // One Chromium for the run, which each file connects to (e2e/support/browser-server.ts).
          globalSetup: [...portalUnderTest.globalSetup, 'e2e/support/browser-server.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // expect.poll's default of 1 s is less than a search took on a busy 2-core CI machine (three
          // tests failed so on 2026-11-25); a person waits too, so it matches the pages' 15 s.
          expect: { poll: { timeout: 15_000 } },
          // Two files at a time, each with its server: much of a browser test is waiting (for the page, the
          // server, a poll), so on the 2-core CI machine the suite took 195–201 s against 267 s one file at
          // a time (2026-11-27). Their own group, so a run of every project may give them a worker count of
          // their own.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
