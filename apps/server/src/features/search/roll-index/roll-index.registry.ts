import type { Executor } from '../../../db/database.ts';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { collectGarbage } from '../../../lib/collect-garbage.ts';
import { RollIndexBuilder, sortColumns, type RollIndex } from './roll-index.ts';
import { rollIndexRepository } from './roll-index.repository.ts';
import { readIndexRows } from './roll-index.rows.ts';
import { RollIndexThread } from './roll-index.thread.ts';

/*
 * The roll indexes of one database in this process: built lazily (or warmed at start), one build at a
 * time, bounded by an LRU on their bytes. Keyed by roll id, an entry can never be wrong (a roll never
 * changes once published), only wasted memory once its client has published another roll. A town whose
 * owner names are not searchable (properties/owner-privacy.ts) has its roll indexed without their words,
 * under its own key (the roll id negated): a change of the setting is a new key, built like a new roll,
 * and the client's other index is evicted as a replaced roll's is.
 */

/** The key of a roll's index: its id, negated when built without owner names' words. */
const keyOf = (rollId: number, withoutOwnerNames: boolean) => (withoutOwnerNames ? -rollId : rollId);

interface RollIndexOptions {
  /** Rolls up to this many parcels are indexed before their first search is answered (a build takes ms). */
  awaitUpTo: number;
  /** All indexes of this process together stay under this many bytes (least recently used go first). */
  memoryBytes: number;
  /** Rows read per query while building. */
  batch: number;
  log?: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
  };
}

export interface RollIndexBuild {
  rollId: number;
  clientId: number;
  parcels: number;
  mb: number;
  ms: number;
}

interface Entry {
  index: RollIndex;
  clientId: number;
}

/** A failed build is retried after this long (meanwhile the roll is searched with SQL). */
const RETRY_AFTER_MS = 60_000;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export class RollIndexRegistry {
  private readonly ready = new Map<number, Entry>();
  private readonly building = new Map<number, Promise<RollIndex | null>>();
  private readonly failedAt = new Map<number, number>();
  private queue: Promise<unknown> = Promise.resolve();
  private warming: Promise<void> | null = null;
  private closed = false;
  /** Callers of withoutIndexes still running: searches then use SQL. */
  private bypassed = 0;
  /** The latest builds, newest last, and the largest one (for operations and the benchmark). */
  readonly builds: RollIndexBuild[] = [];

  constructor(
    private readonly db: Executor,
    private readonly options: RollIndexOptions,
  ) {}

  /**
   * The roll's index when it is ready (or small enough to build now), else null: the caller answers
   * with SQL while the index builds in the background.
   */
  async forRoll(
    clientId: number,
    rollId: number,
    parcelCount: number,
    withoutOwnerNames = false,
  ): Promise<RollIndex | null> {
    if (this.bypassed > 0) return null;
    const key = keyOf(rollId, withoutOwnerNames);
    const entry = this.ready.get(key);
    if (entry) {
      // Most recently used last.
      this.ready.delete(key);
      this.ready.set(key, entry);
      return entry.index;
    }
    this.evictReplaced(clientId, key);
    const pending = this.build(clientId, rollId, { evict: true, parcels: parcelCount, withoutOwnerNames });
    if (!pending) return null;
    return parcelCount <= this.options.awaitUpTo ? pending : null;
  }

  /** The state for operations: roll ids indexed and being built. */
  state(): { ready: number[]; building: number[]; bytes: number } {
    return {
      ready: [...this.ready.keys()].map(Math.abs),
      building: [...this.building.keys()].map(Math.abs),
      bytes: [...this.ready.values()].reduce((sum, e) => sum + e.index.bytes, 0),
    };
  }

  /** Runs `fn` with every search on the SQL path (tests of the fallback). */
  async withoutIndexes<T>(fn: () => Promise<T>): Promise<T> {
    this.bypassed++;
    try {
      return await fn();
    } finally {
      this.bypassed--;
    }
  }

  /**
   * Builds the indexes of the largest active rolls, as many as the memory budget is likely to hold.
   * Resolves once the large ones (more than `awaitUpTo` parcels, whose searches would otherwise use SQL)
   * are built or found not to fit; smaller ones go on building (settled() waits for those too).
   */
  warm(): Promise<void> {
    let largeDone!: () => void;
    const large = new Promise<void>((resolve) => (largeDone = resolve));
    this.warming = this.warmNow(largeDone).finally(largeDone);
    return Promise.race([large, this.warming]);
  }

  /** Resolves once a warm-up started by warm() and every build since have finished (the benchmark waits). */
  async settled(): Promise<void> {
    await this.warming?.catch(() => {});
    await this.idle();
  }

  /**
   * Builds the indexes of the largest rolls (which need them most: a small town's search is quick in
   * SQL) while they fit the memory budget. One at a time, each sized by what the builds so far really
   * took per parcel, so warming never builds an index the LRU would then evict: the county that warmed
   * first must still be there when its visitors come.
   */
  private async warmNow(largeDone: () => void): Promise<void> {
    const rolls = await rollIndexRepository.activeRolls(this.db);
    let parcels = 0;
    let bytes = 0;
    for (const r of rolls) {
      if (this.closed) return;
      // Largest first: the rest are quick to build on their first search.
      if (r.parcelCount <= this.options.awaitUpTo) largeDone();
      // Until one is built its size is a guess, so the largest roll is always tried (keep() decides).
      if (parcels > 0 && this.state().bytes + (r.parcelCount * bytes) / parcels > this.options.memoryBytes)
        continue;
      const index = await this.build(r.clientId, r.rollId, {
        evict: false,
        parcels: r.parcelCount,
        withoutOwnerNames: r.withoutOwnerNames,
      });
      if (index) {
        parcels += index.size;
        bytes += index.bytes;
      }
    }
    await this.idle();
    // The builds' rows and working arrays are garbage now: hand their memory back (measured on the
    // benchmark's county: ~2 GB at the peak of its build).
    if (parcels > 0 && !this.closed) collectGarbage();
  }

  /** Resolves when no build is queued or running. */
  async idle(): Promise<void> {
    for (;;) {
      const q = this.queue;
      await q.catch(() => {});
      if (q === this.queue) return;
    }
  }

  /** Stops building (between batches) and drops every index. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
    this.ready.clear();
  }

  /** A client now serves another roll (or setting): its previous index is only wasted memory. */
  private evictReplaced(clientId: number, key: number) {
    for (const [id, e] of this.ready) if (e.clientId === clientId && id !== key) this.ready.delete(id);
  }

  /** The build of a roll (shared by concurrent callers), or null when it cannot be built now. */
  private build(
    clientId: number,
    rollId: number,
    options: { evict: boolean; parcels: number; withoutOwnerNames: boolean },
  ): Promise<RollIndex | null> | null {
    if (this.closed) return null;
    const key = keyOf(rollId, options.withoutOwnerNames);
    const ready = this.ready.get(key);
    if (ready) return Promise.resolve(ready.index);
    const running = this.building.get(key);
    if (running) return running;
    const failed = this.failedAt.get(key);
    if (failed !== undefined && Date.now() - failed < RETRY_AFTER_MS) return null;
    const promise = this.queue
      .catch(() => {})
      .then(() => this.read(clientId, rollId, options.parcels, options.withoutOwnerNames))
      .then(
        (index) => {
          this.building.delete(key);
          if (index && !this.keep(clientId, key, index, options.evict)) return null;
          return index;
        },
        (err: unknown) => {
          this.building.delete(key);
          this.failedAt.set(key, Date.now());
          if (!this.closed) this.options.log?.warn({ err, rollId }, 'search index build failed; using SQL');
          return null;
        },
      );
    this.building.set(key, promise);
    this.queue = promise;
    return promise;
  }

  private async read(
    clientId: number,
    rollId: number,
    parcels: number,
    withoutOwnerNames: boolean,
  ): Promise<RollIndex | null> {
    const started = performance.now();
    // A roll small enough to be indexed before its first search builds here, in milliseconds; a larger
    // one on a thread of its own (roll-index.thread.ts), which this thread only feeds.
    const thread = parcels > this.options.awaitUpTo ? await RollIndexThread.start(rollId) : null;
    let index: RollIndex;
    try {
      const builder = thread ? null : new RollIndexBuilder(rollId);
      let after: string | null = null;
      for (;;) {
        if (this.closed) return null;
        const batch = await rollIndexRepository.readBatch(
          this.db,
          rollId,
          after,
          this.options.batch,
          withoutOwnerNames,
        );
        if (thread) await thread.add(batch.bytes);
        else readIndexRows(batch.bytes, (r) => builder!.add(r));
        if (batch.rows < this.options.batch) break;
        after = batch.lastAccount;
      }
      index = thread ? await thread.finish() : await builder!.finish(() => yieldToEventLoop());
    } finally {
      await thread?.close();
    }
    // The order of every single-column sort, each a separate turn of the event loop.
    for (const column of sortColumns)
      for (const descending of [false, true]) {
        if (this.closed) return null;
        await yieldToEventLoop();
        index.prepareOrder([{ column, descending }]);
      }
    const build: RollIndexBuild = {
      rollId,
      clientId,
      parcels: index.size,
      mb: mb(index.bytes),
      ms: Math.round(performance.now() - started),
    };
    this.builds.push(build);
    // The last 50, and always the largest: the benchmark's memory per parcel is read from it.
    if (this.builds.length > 50) {
      const largest = this.builds.reduce((a, b) => (b.parcels > a.parcels ? b : a));
      this.builds.splice(this.builds[0] === largest ? 1 : 0, 1);
    }
    this.options.log?.info(build, 'search index built');
    return index;
  }

  /**
   * Makes a built index available, evicting the least recently used ones over the memory budget; or,
   * with `evict` false (warming), keeps it only if it fits beside the others.
   * @returns whether the index was kept.
   */
  private keep(clientId: number, key: number, index: RollIndex, evict: boolean): boolean {
    if (this.closed) return false;
    if (!evict && this.state().bytes + index.bytes > this.options.memoryBytes) return false;
    this.evictReplaced(clientId, key);
    this.ready.set(key, { index, clientId });
    let total = this.state().bytes;
    for (const [id, e] of this.ready) {
      if (total <= this.options.memoryBytes || id === key) break;
      total -= e.index.bytes;
      this.ready.delete(id);
    }
    return true;
  }
}
