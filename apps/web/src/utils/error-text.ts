import { ApiError } from '@/lib/api-client';

/** "filters.land.area.end: …" → "…": the server's summary names the field by its API path. */
const FIELD_PATH_PREFIX = /^[A-Za-z_][\w]*(?:[.[][\w\]]*)+:\s*/;

/**
 * The server's error as a member of the public should read it: the field messages ("Land area to must
 * be a number") rather than the "field.path: message" summary, which names fields by their API spelling.
 * No field path is ever shown.
 */
export function errorText(err: unknown): string {
  if (err instanceof ApiError && err.fields.length > 0)
    return [...new Set(err.fields.map((f) => f.message.replace(FIELD_PATH_PREFIX, '')))].join(' ');
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(FIELD_PATH_PREFIX, '');
}
