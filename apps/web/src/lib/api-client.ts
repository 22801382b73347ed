import type { ErrorBody, FieldError } from '@opp/contracts';
import { authStore } from './auth-store';

/** A failed API call: status, the server's stable code and its message (shown to people as is). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldError[] = [],
  ) {
    super(message);
  }
}

type Listener = () => void;
const enrolmentListeners = new Set<Listener>();

/**
 * Called on every `403 two_factor_required` (signed in, but the provider requires two-factor sign-in
 * before anything else), so the admin areas can send the user to enrolment instead of showing an error.
 */
export function onTwoFactorEnrolmentRequired(listener: Listener): () => void {
  enrolmentListeners.add(listener);
  return () => {
    enrolmentListeners.delete(listener);
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  /** multipart uploads pass FormData; JSON otherwise. */
  form?: FormData;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

/**
 * The one fetch wrapper. Sends the stored access token when there is one; a 401 on a call that sent it
 * means the session ended, so the stored login is cleared (spec §4 "Logout or an invalid token").
 */
export async function api<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const url = new URL(path, window.location.origin);
  for (const [k, v] of Object.entries(options.query ?? {}))
    if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = authStore.getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, signal: options.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(
      0,
      'network_error',
      'Could not reach the server. Check your connection and try again.',
    );
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const e = (data ?? {}) as Partial<ErrorBody>;
    if (res.status === 401 && token) authStore.clear({ expired: true });
    if (res.status === 403 && e.code === 'two_factor_required') enrolmentListeners.forEach((l) => l());
    throw new ApiError(
      res.status,
      e.code ?? 'error',
      e.message ?? `Request failed (${res.status})`,
      e.fields ?? [],
    );
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
