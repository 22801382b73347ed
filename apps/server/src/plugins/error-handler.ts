import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody, FieldError } from '@opp/contracts';
import { AppError } from '../errors.ts';

/**
 * The one error handler. Clients get the ErrorBody contract with a stable code; 5xx responses say
 * nothing about the cause (no stack, no SQL): the log has it, keyed by request id.
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      const send = (statusCode: number, code: ErrorBody['code'], message: string, fields?: FieldError[]) =>
        reply
          .status(statusCode)
          .type('application/json; charset=utf-8')
          .send(errorBody(statusCode, code, message, fields));

      if (err instanceof AppError) {
        if (err.headers) reply.headers(err.headers);
        return send(err.statusCode, err.code, err.message, err.fields);
      }
      if (hasZodFastifySchemaValidationErrors(err)) {
        const where = err.validationContext ?? 'request';
        const fields = err.validation.map((v) => ({
          field: v.instancePath.replace(/^\//, '').replace(/\//g, '.') || where,
          message: v.message ?? 'is invalid',
        }));
        const first = fields[0];
        return send(
          400,
          'validation_failed',
          first ? `${first.field}: ${first.message}` : 'Invalid request',
          fields,
        );
      }
      if (isResponseSerializationError(err)) {
        request.log.error({ err }, 'response did not match its schema');
        return send(500, 'internal_error', 'Something went wrong on our side');
      }
      const status = err.statusCode ?? 500;
      if (status === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return send(413, 'payload_too_large', 'The request body is too large');
      if (isMultipartParseError(err))
        return send(400, 'bad_request', 'The upload is not a valid multipart/form-data body');
      if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
        return send(415, 'unsupported_media_type', 'Unsupported content type');
      if (
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        err instanceof SyntaxError
      ) {
        return send(400, 'bad_request', 'The request body is not valid JSON');
      }
      if (status === 429) return send(429, 'too_many_requests', 'Too many requests; try again later');
      if (status >= 400 && status < 500) {
        // Fastify's own client errors (bad URL encoding, multipart limits…): safe, short messages.
        return send(status, status === 404 ? 'not_found' : 'bad_request', safeClientMessage(err));
      }
      request.log.error({ err }, 'unhandled error');
      return send(500, 'internal_error', 'Something went wrong on our side');
    });
  },
  { name: 'error-handler' },
);

/**
 * A malformed multipart body, as the parser (busboy) reports it: plain Errors without a code, so they
 * are known by message. The client sent them; they are never a server fault.
 */
function isMultipartParseError(err: Error): boolean {
  return /^(Multipart: Boundary not found|Unexpected end of (multipart data|form)|Malformed part header|Malformed urlencoded form|Part terminated early)/.test(
    String(err.message),
  );
}

/** The ErrorBody contract. */
function errorBody(statusCode: number, code: ErrorBody['code'], message: string, fields?: FieldError[]) {
  const body: ErrorBody = { statusCode, code, message, error: message, ...(fields ? { fields } : {}) };
  return body;
}

/**
 * Fastify's own 4xx errors (bad URL encoding, content-length mismatch, multipart limits…) in words that
 * never repeat the request: Fastify's messages quote the URL or a header, which would echo whatever the
 * client sent into the answer.
 */
function safeClientMessage(err: FastifyError): string {
  if (err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
    return 'The request body size did not match Content-Length';
  if (err.code === 'FST_ERR_BAD_URL') return 'The address is not correctly encoded';
  return STATUS_CODES[err.statusCode ?? 400] ?? 'Bad request';
}

/**
 * Errors Fastify answers before any route or the error handler runs (`frameworkErrors`: an address whose
 * percent-encoding is broken): the ErrorBody contract, without quoting the address back.
 */
export function frameworkErrorHandler(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  void reply
    .status(status)
    .type('application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(errorBody(status, status === 404 ? 'not_found' : 'bad_request', safeClientMessage(err)));
}

/**
 * Node's HTTP parser refused the request before Fastify saw it (malformed request line or headers, too
 * large headers, a timeout): answer in the ErrorBody contract, with nothing of the request in it, then
 * close the connection, as Node itself would.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'The request is not valid HTTP'];
  const body = JSON.stringify(errorBody(status, 'bad_request', message));
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
      body,
  );
}
