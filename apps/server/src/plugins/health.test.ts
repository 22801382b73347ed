import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { setupTestApp } from '../../test/helpers.ts';
import { buildClient, publishRoll } from '../../test/factories.ts';
import { Readiness } from './health.ts';

const ctx = setupTestApp();

describe('/readyz', () => {
  it("answers 503 until the node's large rolls are indexed for search, then 200", async () => {
    const town = await buildClient(ctx.db);
    await publishRoll(
      ctx.db,
      town.id,
      Array.from({ length: 300 }, (_, i) => ({ Account: String(i + 1), StreetName: 'MAIN ST' })),
    );
    // A node starting with warming on, every roll "large" (searched in SQL until its index is built).
    const node = await buildApp({
      config: testConfig({ searchIndex: { enabled: true, warm: true, memoryMb: 64, awaitParcels: 0 } }),
      database: ctx.database,
    });
    try {
      await node.ready();
      // The index builds on a thread of its own, which has not even started by now.
      expect((await node.inject('/readyz')).json()).toEqual({ status: 'starting' });
      expect((await node.inject('/readyz')).statusCode).toBe(503);
      expect((await node.inject('/healthz')).statusCode).toBe(200);
      await node.readiness.whenReady();
      expect((await node.inject('/readyz')).statusCode).toBe(200);
      expect(node.rollIndexes!.builds.map((b) => b.clientId)).toContain(town.id);
    } finally {
      await node.close();
    }
  });

  it('is 200 at once for a node with nothing to warm', async () => {
    expect((await ctx.app.inject('/readyz')).json()).toEqual({ status: 'ok' });
  });
});

describe('Readiness', () => {
  it('holds the node back until the work ends, however it ends', async () => {
    const readiness = new Readiness();
    let finish!: () => void;
    let fail!: (err: Error) => void;
    readiness.holdUntil(new Promise<void>((resolve) => (finish = resolve)), 60_000);
    readiness.holdUntil(new Promise<void>((_, reject) => (fail = reject)), 60_000);
    expect(readiness.ready).toBe(false);
    finish();
    fail(new Error('the warm-up failed'));
    await readiness.whenReady();
    expect(readiness.ready).toBe(true);
  });

  it('lets the node be ready once the cap has passed, whatever the work still does', async () => {
    const readiness = new Readiness();
    readiness.holdUntil(new Promise(() => {}), 10);
    expect(readiness.ready).toBe(false);
    await readiness.whenReady();
    expect(readiness.ready).toBe(true);
  });
});
