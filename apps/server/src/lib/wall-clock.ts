/**
 * How the caches whose entries live for a time (lru-cache's `ttl`) read the clock: Date's, which the
 * tests move on with fake timers rather than wait for (lru-cache's default, performance.now, cannot be
 * moved), read on every check (by default lru-cache keeps a reading for a millisecond of real time,
 * which a test's moved clock outlives).
 */
export const wallClock = { perf: { now: () => Date.now() }, ttlResolution: 0 };
