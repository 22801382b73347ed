import type { FastifyRequest } from 'fastify';
import { Role, type AuditEntry, type AuditPage, type AuditQueryParsed } from '@opp/contracts';
import type { Executor } from '../../db/database.ts';
import { forbidden } from '../../errors.ts';
import type { SessionUser } from '../auth/sessions.repository.ts';
import { auditRepository, type AuditFilter, type AuditRow } from './audit.repository.ts';

/*
 * The audit log: who changed what, from where, when, and the record before and after. Every admin
 * change calls `recordAudit` (or `auditService.record` where no request is at hand, e.g. the CLI), in
 * the same transaction as the change when there is one, so a change and its entry stand or fall
 * together.
 */

export interface AuditActor {
  id: number | null;
  username: string | null;
}

export interface AuditRecord {
  actor: AuditActor | null;
  ip: string | null;
  clientId?: number | null;
  /** `<entity>.<verb>`, e.g. `contact.update`, `user.delete`, `two_factor.enable`. */
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

/** Keys whose values never enter the log, at any depth: it is read by more people than the secrets. */
const SECRET_KEY = /pass(word)?|hash|secret|token|otp|recovery|^bytes$|^code$/i;
const MAX_DEPTH = 6;
const MAX_STRING = 2000;
const MAX_ITEMS = 200;

/** A JSON-safe copy with secrets removed and sizes bounded. */
export function redactForAudit(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `[${value.length} bytes]`;
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => redactForAudit(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, MAX_ITEMS)) {
      out[k] = SECRET_KEY.test(k)
        ? v === null || v === undefined
          ? null
          : '[redacted]'
        : redactForAudit(v, depth + 1);
    }
    return out;
  }
  return null;
}

export const auditService = {
  /** Appends one entry. Pass the transaction of the change it describes. */
  async record(db: Executor, r: AuditRecord): Promise<void> {
    await auditRepository.insert(db, {
      actorUserId: r.actor?.id ?? null,
      actorUsername: r.actor?.username ?? null,
      ip: r.ip,
      clientId: r.clientId ?? null,
      action: r.action,
      entity: r.entity,
      entityId: r.entityId === null || r.entityId === undefined ? null : String(r.entityId),
      before: r.before === undefined ? null : redactForAudit(r.before),
      after: r.after === undefined ? null : redactForAudit(r.after),
    });
  },

  /**
   * Reads a page of the log.
   * @throws 403 for anyone but a provider admin or a Super Administrator (who sees their own town only).
   */
  async list(db: Executor, user: SessionUser, q: AuditQueryParsed): Promise<AuditPage> {
    const filter: AuditFilter = {};
    if (user.roleId === Role.Provider) {
      if (q.ClientID !== undefined) filter.clientId = q.ClientID;
    } else if (user.roleId === Role.SuperAdmin && user.manages !== null) {
      if (q.ClientID !== undefined && q.ClientID !== user.manages)
        throw forbidden('You may read the audit log of your own municipality only');
      filter.clientId = user.manages;
    } else {
      throw forbidden('Only provider administrators and Super Administrators may read the audit log');
    }
    if (q.Actor !== undefined) filter.actorUsername = q.Actor;
    if (q.Action !== undefined) filter.action = q.Action;
    if (q.From !== undefined) filter.from = new Date(`${q.From}T00:00:00Z`);
    if (q.To !== undefined) filter.to = new Date(Date.parse(`${q.To}T00:00:00Z`) + 86_400_000);

    const pageSize = q.pagesize ?? 50;
    const page = q.page ?? 1;
    const total = await auditRepository.count(db, filter);
    const rows = await auditRepository.list(db, filter, pageSize, (page - 1) * pageSize);
    return {
      Entries: rows.map(toAuditEntry),
      PageNumber: page,
      PageSize: pageSize,
      Pages: Math.max(1, Math.ceil(total / pageSize)),
      TotalRecords: total,
    };
  },
};

function toAuditEntry(r: AuditRow): AuditEntry {
  return {
    Id: r.id,
    At: r.at.toISOString(),
    ActorUserId: r.actorUserId,
    ActorUsername: r.actorUsername,
    Ip: r.ip,
    ClientID: r.clientId,
    Action: r.action,
    Entity: r.entity,
    EntityId: r.entityId,
    Before: r.before,
    After: r.after,
  };
}

/** Who is acting and from where, as the log records it. */
export function auditActorOf(request: FastifyRequest): { actor: AuditActor | null; ip: string | null } {
  const u = request.user;
  return { actor: u ? { id: u.id, username: u.username } : null, ip: request.ip ?? null };
}

/**
 * The one-liner for routes and services that have the request:
 * `await recordAudit(request, { action: 'contact.update', entity: 'contact', entityId: id, clientId, before, after }, tx)`.
 */
export async function recordAudit(
  request: FastifyRequest,
  entry: Omit<AuditRecord, 'actor' | 'ip'>,
  db: Executor = request.server.database.db,
): Promise<void> {
  await auditService.record(db, { ...auditActorOf(request), ...entry });
}
