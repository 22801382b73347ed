import type { ImportRunDto } from '@opp/contracts';
import { sendRollUpload, type RollUploadParts, type UploadProgress } from './roll-upload';

export type { RollUploadParts, UploadProgress } from './roll-upload';

/**
 * POST /api/rolls/{clientId} (multipart: `file`, and `format` or `mapping`). Resolves with the new run as
 * soon as the files are stored; the import itself continues on the server.
 */
export const publishRoll = (
  clientId: number,
  parts: RollUploadParts,
  onProgress?: (p: UploadProgress) => void,
  signal?: AbortSignal,
) => sendRollUpload<ImportRunDto>(`/api/rolls/${clientId}`, parts, onProgress, signal);
