import { createHash, randomBytes } from 'node:crypto';
import type { Db, Executor } from '../../db/database.ts';
import { sessionsRepository, type SessionUser } from './sessions.repository.ts';

/** Only this hash is stored: a leaked database does not leak usable tokens. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Ends a user's sessions: all of them, or all but the one behind `keepToken` (a user changing their own
 * password stays signed in there). Takes a transaction, so it commits with the change that caused it.
 */
export async function endSessionsOf(db: Executor, userId: number, keepToken: string | null = null) {
  if (keepToken) await sessionsRepository.deleteForUserExcept(db, userId, hashToken(keepToken));
  else await sessionsRepository.deleteForUser(db, userId);
}

export interface SessionLimits {
  idleMinutes: number;
  maxHours: number;
}

/**
 * Opaque bearer tokens backed by the sessions table, so any API node accepts a token any other issued,
 * and logout anywhere ends it everywhere.
 */
export class SessionsService {
  constructor(
    private readonly db: Db,
    private readonly limits: SessionLimits,
  ) {}

  async create(userId: number, meta: { ip: string | null; userAgent: string | null }): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await sessionsRepository.insert(this.db, {
      tokenHash: hashToken(token),
      userId,
      expiresAt: new Date(Date.now() + this.limits.maxHours * 3600_000),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    });
    return token;
  }

  async authenticate(token: string): Promise<SessionUser | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const hash = hashToken(token);
    const found = await sessionsRepository.findLiveUser(this.db, hash, this.idleCutoff());
    if (!found) return null;
    // Write last-seen at most once a minute: a busy admin page must not turn every read into a write.
    if (Date.now() - found.lastSeenAt.getTime() > 60_000) await sessionsRepository.touch(this.db, hash);
    const { lastSeenAt: _ignored, ...user } = found;
    return user;
  }

  async revoke(token: string): Promise<void> {
    await sessionsRepository.delete(this.db, hashToken(token));
  }

  async revokeAllForUser(userId: number): Promise<void> {
    await sessionsRepository.deleteForUser(this.db, userId);
  }

  private idleCutoff() {
    return new Date(Date.now() - this.limits.idleMinutes * 60_000);
  }
}
