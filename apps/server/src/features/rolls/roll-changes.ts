import { createHash } from 'node:crypto';
import type { PropertyRecord } from '@opp/contracts';
import type { Db } from '../../db/database.ts';
import { unpackRecordValue } from '../properties/record-codec.ts';
import { fullCheck } from './full-check.ts';
import { FillCounter, type FillRate } from './import-notes.ts';
import { fastParseRecord } from './record-fast-path.ts';
import { rollsRepository } from './rolls.repository.ts';

/*
 * A dry run's comparison with what is published for the town: which accounts a publish would add,
 * remove and change, and each field's fill in the published roll beside the file's. A record "changes"
 * when any value the file gives differs from the published one (the valuation history the portal keeps
 * itself is left out of the comparison).
 */

export interface ChangedRecord {
  account: string;
  mapLot: string;
}

export interface RollChanges {
  /** Records in the published roll. */
  published: number;
  added: number;
  removed: number;
  changed: number;
  unchanged: number;
  /** The first of each, by Account and map/lot. */
  firstAdded: ChangedRecord[];
  firstRemoved: ChangedRecord[];
  firstChanged: ChangedRecord[];
  publishedFill: FillRate[];
}

const FIRST = 10;

/** What a record is, for comparing: its values as the contract reads them, without the kept history. */
function digest(record: Record<string, unknown>): string {
  const { ValueHistory: _history, ...values } = record;
  return createHash('sha1').update(JSON.stringify(values)).digest('base64');
}

export class RollComparison {
  private readonly published = new Map<string, { account: string; mapLot: string; digest: string }>();
  private readonly seen = new Set<string>();
  private readonly fill = new FillCounter();
  private added = 0;
  private changed = 0;
  private unchanged = 0;
  private readonly firstAdded: ChangedRecord[] = [];
  private readonly firstChanged: ChangedRecord[] = [];

  /** The client's published roll, read for comparing; null when nothing is published. */
  static async load(db: Db, clientId: number): Promise<RollComparison | null> {
    const c = new RollComparison();
    for await (const page of rollsRepository.publishedRecords(db, clientId))
      for (const stored of page) {
        const r = unpackRecordValue(stored);
        c.fill.add(r);
        const account = String(r.Account);
        c.published.set(account.toUpperCase(), {
          account,
          mapLot: typeof r.MapLot === 'string' ? r.MapLot : '',
          digest: digest(r),
        });
      }
    return c.published.size ? c : null;
  }

  /** One record of the file, as mapped (a record the contract refuses is not compared: it blocks). */
  see(value: Record<string, unknown>) {
    const record: PropertyRecord | null =
      fastParseRecord(value) ??
      (() => {
        const parsed = fullCheck(value);
        return parsed.success ? parsed.data : null;
      })();
    if (!record) return;
    const key = record.Account.toUpperCase();
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const before = this.published.get(key);
    const entry = { account: record.Account, mapLot: record.MapLot };
    if (!before) {
      this.added++;
      if (this.firstAdded.length < FIRST) this.firstAdded.push(entry);
    } else if (before.digest !== digest(record as unknown as Record<string, unknown>)) {
      this.changed++;
      if (this.firstChanged.length < FIRST) this.firstChanged.push(entry);
    } else this.unchanged++;
  }

  result(fields: Iterable<string>): RollChanges {
    const removed = [...this.published].filter(([key]) => !this.seen.has(key));
    return {
      published: this.published.size,
      added: this.added,
      removed: removed.length,
      changed: this.changed,
      unchanged: this.unchanged,
      firstAdded: this.firstAdded,
      firstRemoved: removed.slice(0, FIRST).map(([, r]) => ({ account: r.account, mapLot: r.mapLot })),
      firstChanged: this.firstChanged,
      publishedFill: this.fill.rates(fields),
    };
  }
}
