import { ApiError } from '@/lib/api-client';

/**
 * The server's error as a person should read it: the field messages ("Email Address is not a valid
 * email") rather than the "Field: message" summary, which names fields by their API spelling.
 */
export function errorText(err: unknown): string {
  if (err instanceof ApiError && err.fields.length > 0)
    return [...new Set(err.fields.map((f) => f.message))].join(' ');
  return err instanceof Error ? err.message : String(err);
}
