import { z } from 'zod';
import { safeText } from './common.ts';

/*
 * GET /api/audit: the append-only log of admin changes. Provider admins see every town; a town's Super
 * Administrators see their own town only.
 */

const queryInt = (label: string, max: number) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, { message: `${label} must be a positive whole number` })
    .transform(Number)
    .refine((n) => n <= max, { message: `${label} must be at most ${max}` });

const queryDate = (label: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: `${label} must be a date (YYYY-MM-DD)` })
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), { message: `${label} must be a real date` });

export const AUDIT_MAX_PAGE_SIZE = 200;

export const AuditQuery = z.object({
  ClientID: queryInt('ClientID', 2_147_483_647).optional(),
  /** Username of the admin who made the change (exact, case-insensitive). */
  Actor: safeText(100).optional(),
  /** e.g. contact.update; a trailing `*` matches a prefix (`contact.*`). */
  Action: safeText(100)
    .pipe(
      z.string().regex(/^[a-z0-9_.-]+\*?$/i, { message: 'Action may hold only letters, digits and . _ -' }),
    )
    .optional(),
  /** First day included (UTC). */
  From: queryDate('From').optional(),
  /** Last day included (UTC). */
  To: queryDate('To').optional(),
  page: queryInt('page', 1_000_000).optional(),
  pagesize: queryInt('pagesize', AUDIT_MAX_PAGE_SIZE).optional(),
});
export type AuditQuery = z.input<typeof AuditQuery>;
export type AuditQueryParsed = z.output<typeof AuditQuery>;

export const AuditEntry = z.object({
  Id: z.number().int(),
  At: z.string(),
  ActorUserId: z.number().int().nullable(),
  ActorUsername: z.string().nullable(),
  Ip: z.string().nullable(),
  ClientID: z.number().int().nullable(),
  Action: z.string(),
  Entity: z.string(),
  EntityId: z.string().nullable(),
  Before: z.unknown(),
  After: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditPage = z.object({
  Entries: z.array(AuditEntry),
  PageNumber: z.number().int(),
  PageSize: z.number().int(),
  Pages: z.number().int(),
  TotalRecords: z.number().int(),
});
export type AuditPage = z.infer<typeof AuditPage>;
