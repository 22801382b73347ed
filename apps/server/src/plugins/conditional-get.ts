import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * Validators for public GETs (RFC 9110 §8.8, §13). Answers are marked `no-cache`: a browser or proxy
 * may keep them but must revalidate, so a newly published roll or an edited town shows at once while an
 * unchanged one costs a 304 with no body.
 */

export interface Validators {
  /** A strong or weak entity tag, quotes included. */
  etag: string;
  /** When the resource last changed; sent as Last-Modified and compared with If-Modified-Since. */
  lastModified?: Date | null;
  /** Defaults to `public, no-cache`; answers that depend on the caller's token are `private`. */
  cacheControl?: string;
}

/** A weak tag over the JSON answer, for small answers whose inputs have no version of their own. */
export function bodyEtag(body: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 32)}"`;
}

/** A tag for answers derived from one published roll: they change only when the roll does. */
export function rollEtag(parts: Array<string | number | null>): string {
  return `W/"${parts.map((p) => String(p ?? '-')).join('.')}"`;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/**
 * Sets the validators on the reply and reports whether the request's copy is still current, in which
 * case the caller answers 304. If-None-Match wins over If-Modified-Since, as RFC 9110 §13.2.2 says.
 */
export function isNotModified(request: FastifyRequest, reply: FastifyReply, v: Validators): boolean {
  reply.header('etag', v.etag);
  reply.header('cache-control', v.cacheControl ?? 'public, no-cache');
  if (v.lastModified) reply.header('last-modified', v.lastModified.toUTCString());
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;

  const inm = request.headers['if-none-match'];
  if (typeof inm === 'string' && inm.trim() !== '') {
    if (inm.trim() === '*') return true;
    const mine = opaque(v.etag);
    return inm.split(',').some((t) => opaque(t) === mine);
  }
  const ims = request.headers['if-modified-since'];
  if (typeof ims === 'string' && v.lastModified) {
    const since = Date.parse(ims);
    // HTTP dates have whole seconds; the stored time has milliseconds.
    if (!Number.isNaN(since)) return Math.floor(v.lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}
