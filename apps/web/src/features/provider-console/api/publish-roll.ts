import type { ErrorBody, ImportRunDto } from '@opp/contracts';
import { ApiError } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * POST /api/rolls/{clientId} (multipart, field `file`). XMLHttpRequest rather than fetch because a roll
 * can be hundreds of megabytes and fetch cannot report upload progress. Resolves with the new run as
 * soon as the file is stored; the import itself continues on the server.
 */
export function publishRoll(
  clientId: number,
  file: File,
  onProgress: (p: UploadProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<ImportRunDto> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/rolls/${clientId}`);
    xhr.setRequestHeader('accept', 'application/json');
    const token = authStore.getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ loaded: e.loaded, total: e.total });
    };
    xhr.onload = () => {
      const data = safeJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(data as ImportRunDto);
        return;
      }
      const e = (data ?? {}) as Partial<ErrorBody>;
      if (xhr.status === 401 && token) authStore.clear();
      reject(
        new ApiError(
          xhr.status,
          e.code ?? 'error',
          e.message ?? `Upload failed (${xhr.status})`,
          e.fields ?? [],
        ),
      );
    };
    xhr.onerror = () =>
      reject(
        new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.'),
      );
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

function safeJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
