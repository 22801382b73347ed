import type { ParcelLayerKey } from '@opp/contracts';
import { codeKey } from '../properties/search-text.ts';

/*
 * How a record finds its shape, the one rule the import's report, the loss check and the map's index all
 * follow. Keys compare as search compares map/lots (codeKey: case folded, every run of punctuation one
 * `-`). A record whose map/lot has no shape of its own sits on the parcel of its longest map/lot prefix
 * that has one, of at least two parts: condominium unit `4-23-906` on `4-23`, `3-C_3_86` on `3-C-3`, a
 * mobile home `12-4-1` on `12-4`. Accounts and MassGIS LOC_IDs join their own key only: a LOC_ID names
 * the parcel a record sits on already (a condominium's units share their building's).
 */

/** What a record is joined by: its map/lot, its account, and its MassGIS LOC_ID ('' for none). */
export interface JoinedRecord {
  account: string;
  mapLot: string;
  locId: string;
}

/** The record's own key, as codes compare (empty: it has none). */
export const recordCode = (keyField: ParcelLayerKey, r: JoinedRecord) => {
  const value = keyField === 'Account' ? r.account : keyField === 'LocId' ? r.locId : r.mapLot;
  return value ? codeKey(value) : '';
};

/**
 * The code of the shape a record's key code joins: its own, or (map/lots) its longest prefix of at
 * least two parts that has a shape; undefined when none does.
 */
export function joinedCode(
  hasShape: (code: string) => boolean,
  code: string,
  keyField: ParcelLayerKey,
): string | undefined {
  if (!code) return undefined;
  if (hasShape(code)) return code;
  if (keyField !== 'MapLot') return undefined;
  for (let cut = code.lastIndexOf('-'); cut > 0; cut = code.lastIndexOf('-', cut - 1)) {
    const prefix = code.slice(0, cut);
    // `4`, a map sheet, is not a parcel a unit sits on.
    if (!prefix.includes('-')) return undefined;
    if (hasShape(prefix)) return prefix;
  }
  return undefined;
}
