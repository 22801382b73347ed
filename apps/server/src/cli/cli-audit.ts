import os from 'node:os';
import type { Executor } from '../db/database.ts';
import { auditService, type AuditActor, type AuditRecord } from '../features/audit/audit.service.ts';

/*
 * Changes made from the command line are audited like those made over HTTP. There is no signed-in user
 * and no address: the log names the operating-system account that ran the command (`cli:ann`), so an
 * entry can still be traced to a person.
 */

/** Who acted, as the audit log records a command-line change. */
export function cliAuditActor(): { actor: AuditActor; ip: null } {
  return { actor: { id: null, username: `cli:${osUser()}` }, ip: null };
}

/** Appends one entry for a command-line change (pass the change's transaction when there is one). */
export async function recordCliAudit(db: Executor, entry: Omit<AuditRecord, 'actor' | 'ip'>): Promise<void> {
  await auditService.record(db, { ...cliAuditActor(), ...entry });
}

function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    // A container user without a passwd entry.
    return process.env.USER || process.env.LOGNAME || `uid ${process.getuid?.() ?? '?'}`;
  }
}
