import type { ParcelLayerKey, ParcelLayerReport } from '@opp/contracts';
import { api } from '@/lib/api-client';

export interface ParcelLayerUpload {
  file: File;
  key: ParcelLayerKey;
  /** The feature property holding the key (empty: the key's own name). */
  property: string;
  /** Only check the file and answer its join report. */
  dryRun: boolean;
  /** Replace the map even though fewer records would be on it (the provider saw the loss). */
  confirmLoss?: boolean;
}

/** POST /api/parcels/{clientId} (multipart, field `file`): the same import as `portal parcels import`. */
export function uploadParcelLayer(
  clientId: number,
  { file, key, property, dryRun, confirmLoss }: ParcelLayerUpload,
): Promise<ParcelLayerReport> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api<ParcelLayerReport>('POST', `/api/parcels/${clientId}`, {
    form,
    query: {
      key,
      property: property.trim(),
      dryRun: dryRun ? 1 : undefined,
      confirmLoss: confirmLoss ? 1 : undefined,
    },
  });
}
