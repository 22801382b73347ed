import type { ErrorCode, FieldError } from '@opp/contracts';

/**
 * The one error type services throw. The error handler turns it into the ErrorBody contract; anything
 * else that reaches the handler is a bug and becomes a 500 with no detail.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: FieldError[]) =>
  new AppError(400, fields ? 'validation_failed' : 'bad_request', message, fields);
export const validationFailed = (field: string, message: string) =>
  new AppError(400, 'validation_failed', `${field}: ${message}`, [{ field, message }]);
export const unauthorized = (message = 'Sign in to continue') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You are not allowed to do that') =>
  new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string, field?: string) =>
  new AppError(409, 'conflict', message, field ? [{ field, message }] : undefined);
export const payloadTooLarge = (message: string) => new AppError(413, 'payload_too_large', message);
export const unsupportedMediaType = (message: string) => new AppError(415, 'unsupported_media_type', message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many requests; try again later') =>
  new AppError(429, 'too_many_requests', message, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
