import type { ImageUploadResponse } from '@opp/contracts';
import { api } from '@/lib/api-client';

function form(clientId: number, file: File): FormData {
  const data = new FormData();
  data.set('ClientID', String(clientId));
  data.set('fileType', file.type || 'application/octet-stream');
  data.set('file', file, file.name);
  return data;
}

/** POST /api/image: a first banner (the server makes it the client's). */
export const uploadBanner = (clientId: number, file: File) =>
  api<ImageUploadResponse>('POST', '/api/image', { form: form(clientId, file) });

/** PATCH /api/image/{bannerFile}: a new file in place of the current banner. */
export const replaceBanner = (bannerFile: string, clientId: number, file: File) =>
  api<ImageUploadResponse>('PATCH', `/api/image/${encodeURIComponent(bannerFile)}`, {
    form: form(clientId, file),
  });

/** DELETE /api/image/{bannerFile}. */
export const deleteBanner = (bannerFile: string) =>
  api<{ ok: true }>('DELETE', `/api/image/${encodeURIComponent(bannerFile)}`);
