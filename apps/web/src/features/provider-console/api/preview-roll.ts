import type { RollPreviewDto } from '@opp/contracts';
import { sendRollUpload, type RollUploadParts, type UploadProgress } from './roll-upload';

/**
 * POST /api/rolls/{clientId}/preview: what publishing these parts would do (counts, fill rates, the
 * first records as mapped, problems); the server writes nothing.
 */
export const previewRoll = (
  clientId: number,
  parts: RollUploadParts,
  onProgress?: (p: UploadProgress) => void,
  signal?: AbortSignal,
) => sendRollUpload<RollPreviewDto>(`/api/rolls/${clientId}/preview`, parts, onProgress, signal);
