import { z } from 'zod';
import { normaliseWebLink } from './links.ts';

/** Stable, machine-readable error codes. Clients branch on `code`, people read `message`. */
export const ErrorCode = z.enum([
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'two_factor_required',
  'internal_error',
  'service_unavailable',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const FieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

/**
 * Every non-2xx JSON response has this shape. `error` repeats the message because the original
 * portal's clients read an `error` field from failed saves (spec §8).
 */
export const ErrorBody = z.object({
  statusCode: z.number().int(),
  code: ErrorCode,
  message: z.string(),
  error: z.string(),
  fields: z.array(FieldError).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Text that PostgreSQL can store: NUL bytes are rejected at the edge (PostgreSQL refuses them in text). */
export const safeText = (max: number) =>
  z
    .string()
    .max(max, { message: `must be at most ${max} characters` })
    .refine((s) => !s.includes('\u0000'), { message: 'must not contain NUL characters' });

/** A positive database id in a path. Rejects `1e309`, `Infinity`, `01`, `-1`, `1.5` and anything past int4. */
export const IdParam = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, { message: 'must be a positive whole number' })
  .transform(Number)
  .refine((n) => n <= 2_147_483_647, { message: 'is too large' });

export const OkResponse = z.object({ ok: z.literal(true) });

/** `schema` (a string schema) whose value must pass `normalise`; the output is the normalised link. */
export const checkedLink = <S extends z.ZodType<string>>(
  schema: S,
  message: string,
  normalise: (value: string) => string | null = normaliseWebLink,
) =>
  schema.transform((value, ctx) => {
    const link = normalise(value);
    if (link === null) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return link;
  });

/** A stored web link field of a form: at most `max` characters; `message` names the field. */
export const linkField = (max: number, message: string) => checkedLink(safeText(max), message);
