import {
  RECOVERY_CODES_NEED_APP_MESSAGE,
  Role,
  TWO_FACTOR_ENROLMENT_MESSAGE,
  TWO_FACTOR_REQUIRED_MESSAGE,
  type TwoFactorConfirmResponse,
  type TwoFactorRecoveryCodesResponse,
  type TwoFactorStartResponse,
  type TwoFactorStatus,
} from '@opp/contracts';
import type { Db } from '../../db/database.ts';
import { AppError, conflict, forbidden, notFound } from '../../errors.ts';
import { auditService, type AuditActor } from '../audit/audit.service.ts';
import { sessionsRepository, type SessionUser } from './sessions.repository.ts';
import { twoFactorRepository } from './two-factor.repository.ts';
import {
  generateRecoveryCodes,
  generateSecret,
  hashRecoveryCode,
  looksLikeRecoveryCode,
  matchStep,
  otpauthUri,
} from './two-factor.totp.ts';

/** Throttles the codes a signed-in admin types (LoginThrottle.checkCode / codeAccepted). */
export interface CodeGuard {
  /** @throws 429 when this account has tried too many codes. */
  check(userId: number): Promise<void>;
  accepted(userId: number): Promise<void>;
}

export interface TwoFactorOptions {
  issuer: string;
  requireForProvider: boolean;
  clock?: () => number;
  guard?: CodeGuard;
}

export interface Who {
  actor: AuditActor | null;
  ip: string | null;
}

export const twoFactorRequired = (message = TWO_FACTOR_REQUIRED_MESSAGE) =>
  new AppError(401, 'two_factor_required', message);

/** 403 with the two_factor_required code: signed in, but the provider requires enrolment first. */
export const enrolmentRequired = () => new AppError(403, 'two_factor_required', TWO_FACTOR_ENROLMENT_MESSAGE);

/**
 * Two-factor sign-in for admins: enrolment (start → confirm with a code), removal, and the second step
 * of a login. A code is accepted once: the step it belongs to is stored, and only later steps pass.
 */
export class TwoFactorService {
  private readonly clock: () => number;
  private readonly guard: CodeGuard;

  constructor(
    private readonly db: Db,
    private readonly options: TwoFactorOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.guard = options.guard ?? { check: async () => {}, accepted: async () => {} };
  }

  /** Whether this signed-in user must enrol before doing anything else. */
  mustEnrol(user: Pick<SessionUser, 'roleId' | 'totpEnabled'>): boolean {
    return this.options.requireForProvider && user.roleId === Role.Provider && !user.totpEnabled;
  }

  /** @throws 403 two_factor_required when this user must enrol before doing anything else. */
  assertEnrolled(user: Pick<SessionUser, 'roleId' | 'totpEnabled'>): void {
    if (this.mustEnrol(user)) throw enrolmentRequired();
  }

  async status(user: SessionUser): Promise<TwoFactorStatus> {
    const row = await this.load(user.id);
    return {
      Enabled: row.totpEnabled,
      Pending: !row.totpEnabled && row.totpSecret !== null,
      RecoveryCodesLeft: row.totpEnabled ? await twoFactorRepository.countRecoveryCodes(this.db, user.id) : 0,
      Required: this.options.requireForProvider && user.roleId === Role.Provider,
    };
  }

  /**
   * Issues a new secret for the user to add to an authenticator app. Nothing changes at sign-in until
   * `confirm` proves the app produces the right codes.
   * @throws 409 when two-factor sign-in is already on.
   */
  async start(user: SessionUser): Promise<TwoFactorStartResponse> {
    const secret = generateSecret();
    if (!(await twoFactorRepository.setPendingSecret(this.db, user.id, secret)))
      throw conflict('Two-factor sign-in is already on; turn it off first to change authenticator');
    return { Secret: secret, OtpauthUri: otpauthUri(this.options.issuer, user.username, secret) };
  }

  /**
   * Turns two-factor sign-in on with a code from the app, and returns fresh recovery codes (shown once).
   * @throws 409 when nothing was started or it is already on; 400 when the code is wrong.
   */
  async confirm(user: SessionUser, code: string, who: Who): Promise<TwoFactorConfirmResponse> {
    const row = await this.load(user.id);
    if (row.totpEnabled) throw conflict('Two-factor sign-in is already on');
    if (!row.totpSecret) throw conflict('Start enrolment first: no authenticator secret was issued');
    await this.guard.check(user.id);
    const step = matchStep(row.totpSecret, code.replace(/\s/g, ''), this.clock(), null);
    if (step === null)
      throw new AppError(400, 'validation_failed', 'Code: that code was not accepted', [
        { field: 'Code', message: 'that code was not accepted; check the time on your device' },
      ]);
    const codes = generateRecoveryCodes();
    await this.db.transaction(async (tx) => {
      if (!(await twoFactorRepository.enable(tx, user.id, row.totpSecret!, step)))
        throw conflict('Two-factor enrolment changed meanwhile; start again');
      await twoFactorRepository.replaceRecoveryCodes(tx, user.id, codes.map(hashRecoveryCode));
      await auditService.record(tx, {
        ...who,
        clientId: user.manages,
        action: 'two_factor.enable',
        entity: 'user',
        entityId: user.id,
        before: { TwoFactorEnabled: false },
        after: { TwoFactorEnabled: true },
      });
    });
    await this.guard.accepted(user.id);
    return { Enabled: true, RecoveryCodes: codes };
  }

  /**
   * Turns two-factor sign-in off; a current code or a recovery code proves the person holds the factor
   * (a stolen session alone cannot remove it).
   * @throws 403 when the provider requires it for this account; 400 when the code is wrong.
   */
  async disable(user: SessionUser, code: string, who: Who): Promise<void> {
    if (this.options.requireForProvider && user.roleId === Role.Provider)
      throw forbidden('Provider administrators must keep two-factor sign-in on');
    const row = await this.load(user.id);
    if (!row.totpEnabled) {
      // Abandon a pending enrolment; nothing to prove.
      await twoFactorRepository.disable(this.db, user.id);
      return;
    }
    await this.guard.check(user.id);
    await this.db.transaction(async (tx) => {
      if (!(await this.spendCode(tx, row.id, row.totpSecret, row.totpLastStep, code)))
        throw new AppError(400, 'validation_failed', 'Code: that code was not accepted', [
          { field: 'Code', message: 'that code was not accepted' },
        ]);
      await twoFactorRepository.disable(tx, user.id);
      await auditService.record(tx, {
        ...who,
        clientId: user.manages,
        action: 'two_factor.disable',
        entity: 'user',
        entityId: user.id,
        before: { TwoFactorEnabled: true },
        after: { TwoFactorEnabled: false },
      });
    });
    await this.guard.accepted(user.id);
  }

  /**
   * Replaces all recovery codes with a fresh set (shown once). Only a current authenticator code
   * proves the person still holds the app: someone who lost it must not be able to turn one leftover
   * recovery code into ten new ones; that goes through an administrator's reset instead.
   * @throws 409 when two-factor sign-in is off; 400 when the code is wrong, already used, or a recovery code.
   */
  async replaceRecoveryCodes(
    user: SessionUser,
    code: string,
    who: Who,
  ): Promise<TwoFactorRecoveryCodesResponse> {
    const row = await this.load(user.id);
    if (!row.totpEnabled || !row.totpSecret)
      throw conflict('Two-factor sign-in is off; turn it on to get recovery codes');
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits))
      throw new AppError(400, 'validation_failed', `Code: ${RECOVERY_CODES_NEED_APP_MESSAGE}`, [
        { field: 'Code', message: RECOVERY_CODES_NEED_APP_MESSAGE },
      ]);
    await this.guard.check(user.id);
    const codes = generateRecoveryCodes();
    await this.db.transaction(async (tx) => {
      // Same one-time rule as at sign-in: only a step later than the last one used passes.
      const step = matchStep(row.totpSecret!, digits, this.clock(), row.totpLastStep);
      if (step === null || !(await twoFactorRepository.useStep(tx, user.id, step)))
        throw new AppError(400, 'validation_failed', 'Code: that code was not accepted', [
          { field: 'Code', message: 'that code was not accepted; enter the newest code from your app' },
        ]);
      const left = await twoFactorRepository.countRecoveryCodes(tx, user.id);
      await twoFactorRepository.replaceRecoveryCodes(tx, user.id, codes.map(hashRecoveryCode));
      await auditService.record(tx, {
        ...who,
        clientId: user.manages,
        action: 'two_factor.recovery_codes_replaced',
        entity: 'user',
        entityId: user.id,
        // Counts only, the codes never leave this answer. (A key naming "recovery" would be redacted.)
        before: { CodesLeft: left },
        after: { CodesLeft: codes.length },
      });
    });
    await this.guard.accepted(user.id);
    return { RecoveryCodes: codes };
  }

  /**
   * The second step of a sign-in whose password was right.
   * @throws 401 two_factor_required when the account has it on and the code is missing or not accepted.
   */
  async verifyLogin(
    user: { id: number; username: string; manages: number | null; totpEnabled: boolean },
    code: string | undefined,
    ip: string | null,
  ): Promise<void> {
    if (!user.totpEnabled) return;
    if (!code) throw twoFactorRequired();
    const row = await this.load(user.id);
    const usedRecovery = !/^\d{6}$/.test(code.replace(/\s/g, ''));
    const ok = await this.db.transaction(async (tx) => {
      const spent = await this.spendCode(tx, row.id, row.totpSecret, row.totpLastStep, code);
      if (spent && usedRecovery)
        await auditService.record(tx, {
          actor: { id: user.id, username: user.username },
          ip,
          clientId: user.manages,
          action: 'two_factor.recovery_code_used',
          entity: 'user',
          entityId: user.id,
          // Not "RecoveryCodesLeft": the audit log redacts any key naming recovery.
          after: { CodesLeft: await twoFactorRepository.countRecoveryCodes(tx, user.id) },
        });
      return spent;
    });
    if (!ok) throw twoFactorRequired('That code was not accepted; enter a current code or a recovery code');
  }

  /** Accepts a TOTP code (once) or a recovery code (once). */
  private async spendCode(
    tx: Parameters<Parameters<Db['transaction']>[0]>[0],
    userId: number,
    secret: string | null,
    lastStep: number | null,
    code: string,
  ): Promise<boolean> {
    const digits = code.replace(/\s/g, '');
    if (/^\d{6}$/.test(digits)) {
      if (!secret) return false;
      const step = matchStep(secret, digits, this.clock(), lastStep);
      return step !== null && (await twoFactorRepository.useStep(tx, userId, step));
    }
    if (looksLikeRecoveryCode(code))
      return twoFactorRepository.useRecoveryCode(tx, userId, hashRecoveryCode(code));
    return false;
  }

  private async load(userId: number) {
    const row = await twoFactorRepository.find(this.db, userId);
    if (!row) throw notFound('No such user');
    return row;
  }
}

/**
 * An operator's reset for someone who lost both their authenticator app and their recovery codes: the
 * factor and the codes are removed and every session of the account ends, so whoever holds one must sign
 * in again (and, where the provider requires it, enrol again). Only the command line offers it: whoever
 * runs it already holds the database, and no web session can strip another admin's second factor.
 * @returns false when the account had no two-factor sign-in (nothing changed, nothing audited).
 */
export async function resetTwoFactor(
  db: Db,
  user: { id: number; manages: number | null },
  who: Who,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await twoFactorRepository.find(tx, user.id);
    if (!row || (!row.totpEnabled && row.totpSecret === null)) return false;
    await twoFactorRepository.disable(tx, user.id);
    await sessionsRepository.deleteForUser(tx, user.id);
    await auditService.record(tx, {
      ...who,
      clientId: user.manages,
      action: 'two_factor.reset',
      entity: 'user',
      entityId: user.id,
      before: { TwoFactorEnabled: row.totpEnabled },
      after: { TwoFactorEnabled: false },
    });
    return true;
  });
}
