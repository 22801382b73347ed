import type { ErrorBody } from '@opp/contracts';
import { ApiError } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * What a roll upload sends: the data files, and a built-in format or a mapping file. The preview and
 * the publish send the very same parts, so what the provider confirmed is what is published.
 */
export interface RollUploadParts {
  files: File[];
  format?: string;
  mapping?: File;
  /** What the values are for and as of (RollDatingInput's fields, as typed): optional. */
  fiscalYear?: string;
  valuationDate?: string;
  /** Publishing only: the record count of the preview being confirmed (the run's progress total). */
  records?: number;
}

/**
 * A multipart roll upload to `url`. XMLHttpRequest rather than fetch because a roll can be hundreds of
 * megabytes and fetch cannot report upload progress.
 */
export function sendRollUpload<T>(
  url: string,
  parts: RollUploadParts,
  onProgress: (p: UploadProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    const token = authStore.getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ loaded: e.loaded, total: e.total });
    };
    xhr.onload = () => {
      const data = safeJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(data as T);
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
    // The format first: the server reads the parts in order.
    const form = new FormData();
    if (parts.format) form.append('format', parts.format);
    if (parts.records !== undefined) form.append('records', String(parts.records));
    if (parts.fiscalYear) form.append('fiscalYear', parts.fiscalYear);
    if (parts.valuationDate) form.append('valuationDate', parts.valuationDate);
    if (parts.mapping) form.append('mapping', parts.mapping, parts.mapping.name);
    for (const file of parts.files) form.append('file', file, file.name);
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
