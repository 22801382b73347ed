import { PropertyRecord } from '@opp/contracts';
import type { FullCheck } from './roll-rows.ts';

/**
 * Zod's check of a record against the contract: what the fast path (record-fast-path.ts) leaves to it
 * gets its output, or its messages, from here. A module of its own, so an import thread can load it
 * (and zod) only when a record needs it (prepare-worker.ts).
 */
export const fullCheck: FullCheck = (value, params) => PropertyRecord.safeParse(value, params);
