import { describe, expect, it, vi } from 'vitest';
import type { PropertyRecordInput, SearchResponse } from '@opp/contracts';
import { setupTestApp } from '../../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../../test/factories.ts';
import { RollIndexRegistry } from './roll-index.registry.ts';
import { rollIndexRepository } from './roll-index.repository.ts';

// Every roll counts as big here (awaitParcels 0): its first searches are answered while its index builds.
const ctx = setupTestApp({
  publicRateLimitPerMinute: 1_000_000,
  searchIndex: { enabled: true, warm: false, memoryMb: 512, awaitParcels: 0 },
});

const records = (n: number, owner: string): PropertyRecordInput[] =>
  Array.from({ length: n }, (_, i) => ({
    Account: `${owner.slice(0, 1)}${i + 1}`,
    MapLot: `U${(i % 7) + 1}-${i + 1}`,
    Owners: [{ OwnerName: `${owner} ${i % 9}` }],
    StreetNumber: String(i + 1),
    StreetName: i % 2 ? 'Lake Rd' : 'Hill Rd',
    TotalAcres: (i % 13) + 0.5,
  }));

async function search(clientId: number, query: string, sort = 'Acres'): Promise<SearchResponse> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/propertysearch/${clientId}?query=${encodeURIComponent(query)}&pagesize=20&page=2`,
    payload: { sort: [{ sortby: sort, descending: true }] },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as SearchResponse;
}

describe('roll index lifecycle', () => {
  it("answers a big roll's searches while its index builds, then from the index, identically", async () => {
    const client = await buildClient(ctx.db);
    const { client: published } = await publishRoll(ctx.db, client.id, records(300, 'SMITH'));
    const registry = ctx.app.rollIndexes!;
    expect(registry.state().ready).not.toContain(published.activeRollId);
    const during = await search(client.id, 'smith lake');
    await registry.idle();
    expect(registry.state().ready).toContain(published.activeRollId);
    const after = await search(client.id, 'smith lake');
    expect(after).toEqual(during);
    expect(after).toMatchObject({ TotalRecords: 150, TotalIsEstimate: false });
    expect(after.SearchProperties).toHaveLength(20);
  });

  it("drops a roll's index once its town publishes a new roll, and answers from the new roll", async () => {
    const client = await buildClient(ctx.db);
    const { client: first } = await publishRoll(ctx.db, client.id, records(120, 'JONES'));
    const registry = ctx.app.rollIndexes!;
    await search(client.id, 'jones');
    await registry.idle();
    expect(registry.state().ready).toContain(first.activeRollId);
    const { client: second } = await publishRoll(ctx.db, client.id, records(80, 'BROWN'));
    expect((await search(client.id, 'jones')).TotalRecords).toBe(0);
    await registry.idle();
    expect(registry.state().ready).not.toContain(first.activeRollId);
    expect(registry.state().ready).toContain(second.activeRollId);
    expect((await search(client.id, 'brown')).TotalRecords).toBe(80);
  });

  it('keeps its indexes within the memory budget, the least recently used leaving first', async () => {
    const a = await buildClient(ctx.db);
    const b = await buildClient(ctx.db);
    const { client: ra } = await publishRoll(ctx.db, a.id, records(50, 'ADAMS'));
    const { client: rb } = await publishRoll(ctx.db, b.id, records(50, 'BAKER'));
    const tiny = new RollIndexRegistry(ctx.db, { awaitUpTo: 1_000_000, memoryBytes: 1, batch: 20 });
    expect((await tiny.forRoll(a.id, ra.activeRollId!, 50))?.size).toBe(50);
    expect(tiny.state().ready).toEqual([ra.activeRollId]);
    expect((await tiny.forRoll(b.id, rb.activeRollId!, 50))?.size).toBe(50);
    expect(tiny.state().ready).toEqual([rb.activeRollId]);
    await tiny.close();
  });

  it('warms the largest rolls that fit the budget, and never drops one it warmed for a smaller one', async () => {
    const big = await buildClient(ctx.db);
    const { client: rb } = await publishRoll(ctx.db, big.id, records(400, 'CARTER'));
    const probe = new RollIndexRegistry(ctx.db, { awaitUpTo: 1_000_000, memoryBytes: 2 ** 31, batch: 100 });
    const bigBytes = (await probe.forRoll(big.id, rb.activeRollId!, 400))!.bytes;
    await probe.close();
    // Room for the county-sized roll and a little more: not for every town beside it.
    const budget = Math.round(bigBytes * 1.2);
    const warm = new RollIndexRegistry(ctx.db, { awaitUpTo: 0, memoryBytes: budget, batch: 100 });
    await warm.warm();
    expect(warm.state().ready).toContain(rb.activeRollId);
    expect(warm.state().bytes).toBeLessThanOrEqual(budget);
    await warm.close();
  });

  it("warms the active rolls' indexes, and reports each build", async () => {
    const warm = new RollIndexRegistry(ctx.db, { awaitUpTo: 0, memoryBytes: 512 * 1024 * 1024, batch: 100 });
    await warm.warm();
    const active = ctx.app.rollIndexes!.state().ready;
    expect(warm.state().ready.length).toBeGreaterThanOrEqual(active.length);
    expect(warm.builds.map((b) => b.rollId).sort()).toEqual([...warm.state().ready].sort());
    expect(warm.builds.every((b) => b.parcels > 0)).toBe(true);
    await warm.close();
  });

  it('answers with SQL when a build fails, and does not retry it at once', async () => {
    const reads = vi.spyOn(rollIndexRepository, 'readBatch').mockRejectedValue(new Error('connection lost'));
    try {
      const registry = new RollIndexRegistry(ctx.db, {
        awaitUpTo: 1_000_000,
        memoryBytes: 1 << 30,
        batch: 100,
      });
      expect(await registry.forRoll(1, 12345, 10)).toBeNull();
      expect(await registry.forRoll(1, 12345, 10)).toBeNull();
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });
});
