import {
  canGrantRole,
  canManageAdmins,
  DEFAULT_ADMIN_ROLE,
  isProviderAdmin,
  Role,
  type Actor,
  type RoleId,
  type User,
  type UserBody,
} from '@opp/contracts';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { AppError, forbidden, notFound, validationFailed } from '../../errors.ts';
import { auditService, type auditActorOf } from '../audit/audit.service.ts';
import { hashPassword } from '../auth/password.ts';
import { endSessionsOf } from '../auth/sessions.service.ts';
import { clientsService } from '../clients/clients.service.ts';
import { toUserDto, usersRepository, type UserRow } from './users.repository.ts';

export { toUserDto } from './users.repository.ts';

export type ParsedUserBody = z.output<typeof UserBody>;

/** Who is acting, and the token they act with (a user changing their own password keeps this session). */
export interface UserActor extends Actor {
  accessToken: string | null;
  /** Who and where, as the audit log records it. */
  audit: ReturnType<typeof auditActorOf>;
  /**
   * Proves the actor is the owner of their own account (current password, second factor) before they
   * change its password, email or username; absent where nobody can answer (then such a change is refused).
   */
  confirmCredentials?: (
    user: UserRow,
    password: string | undefined,
    code: string | undefined,
  ) => Promise<void>;
}

/**
 * Spec §6 rules for admin accounts, enforced here whatever the UI shows:
 * - only a provider admin (1) or the client's Super Administrator (2) creates, changes or deletes admins;
 * - nobody grants a role higher (a lower RoleID) than their own;
 * - a municipality admin only creates or moves admins into their own client;
 * - provider admins (1) manage no single client; every other role manages exactly one;
 * - nobody deletes their own account, and only a provider admin edits their own row (name, email,
 *   password; never their own role), as the admins list offers no self-edit to anyone else.
 */
export const usersService = {
  /** An account by username or email (case-insensitive), for signing in; null when there is none. */
  async findByIdentity(db: Executor, identity: string): Promise<UserRow | null> {
    return usersRepository.findByIdentity(db, identity);
  },

  /**
   * Creates an account, or sets an existing one's role, client and password (it keeps its name and
   * email), as the operator's demo seeds it: no actor, no audit, none of the rules above.
   */
  async saveSeeded(
    db: Executor,
    existingId: number | null,
    values: Parameters<typeof usersRepository.insert>[1],
  ): Promise<void> {
    const { username: _username, email: _email, ...changes } = values;
    if (existingId === null) await usersRepository.insert(db, values);
    else await usersRepository.update(db, existingId, changes);
  },

  /** The admins of one municipality, sorted by username. @throws 403, 404 (unknown client). */
  async listForClient(db: Db, actor: Actor, clientId: number): Promise<User[]> {
    if (!canManageAdmins(actor, clientId)) throw forbidden('Only a Super Administrator may manage admins');
    if (!(await clientsService.findById(db, clientId))) throw notFound('No such municipality');
    return (await usersRepository.listByClient(db, clientId)).map(toUserDto);
  },

  /** Every account with one role (the provider console lists RoleID 1). @throws 403. */
  async listByRole(db: Db, actor: Actor, roleId: RoleId): Promise<User[]> {
    if (!isProviderAdmin(actor)) throw forbidden('Only provider administrators may do that');
    return (await usersRepository.listByRole(db, roleId)).map(toUserDto);
  },

  /** One account: your own, or any for a provider admin. @throws 403, 404. */
  async get(db: Db, actor: Actor, id: number): Promise<User> {
    if (actor.id !== id && !isProviderAdmin(actor)) throw forbidden('You may only look up your own account');
    const row = await usersRepository.findById(db, id);
    if (!row) throw notFound('No such user');
    return toUserDto(row);
  },

  /**
   * Creates an admin. RoleID defaults to 3 and Manages to the actor's own client (spec §5).
   * @throws 403 (not allowed), 400 (missing password, bad Manages), 409 (username or email taken).
   */
  async create(db: Db, actor: UserActor, body: ParsedUserBody): Promise<User> {
    const roleId = body.RoleID ?? DEFAULT_ADMIN_ROLE;
    const manages =
      body.Manages !== undefined ? body.Manages : roleId === Role.Provider ? null : (actor.manages ?? null);
    authorizeTarget(actor, roleId, manages);
    await checkManages(db, roleId, manages);
    if (!body.Password) throw validationFailed('Password', 'Password is required');
    await checkUnique(db, body.Username, body.Email, null);
    const passwordHash = await hashPassword(body.Password);
    const row = await withUniqueGuard(() =>
      db.transaction(async (tx) => {
        const created = await usersRepository.insert(tx, {
          username: body.Username,
          email: body.Email,
          roleId,
          manages,
          passwordHash,
        });
        await auditService.record(tx, {
          ...actor.audit,
          clientId: manages,
          action: 'user.create',
          entity: 'user',
          entityId: created.id,
          after: toUserDto(created),
        });
        return created;
      }),
    );
    return toUserDto(row);
  },

  /**
   * Changes an admin. Fields left out keep their value. A new password or email ends every other
   * session of that account (the actor's own current session survives a change of their own); changing
   * one's own password, email or username needs the current password and, when it is on, the second
   * factor.
   * @throws 403, 404, 400, 409, 429.
   */
  async update(db: Db, actor: UserActor, id: number, body: ParsedUserBody): Promise<User> {
    if (body.UserId != null && body.UserId !== id)
      throw validationFailed('UserId', 'does not match the user in the address');
    const target = await usersRepository.findById(db, id);
    if (!target) throw notFound('No such user');
    const self = target.id === actor.id;
    if (self) {
      if (!isProviderAdmin(actor)) throw forbidden('You cannot edit your own admin account');
      if (body.RoleID !== undefined && body.RoleID !== target.roleId)
        throw forbidden('You cannot change your own role');
    } else {
      authorizeExisting(actor, target);
    }
    const roleId = body.RoleID ?? (target.roleId as RoleId);
    const manages = body.Manages !== undefined ? body.Manages : target.manages;
    if (!self) authorizeTarget(actor, roleId, manages);
    const emailChanged = body.Email.toLowerCase() !== target.email.toLowerCase();
    // The username is what one signs in with: a stolen session must not change it either.
    const usernameChanged = body.Username !== target.username;
    if (self && (body.Password || emailChanged || usernameChanged)) {
      if (!actor.confirmCredentials)
        throw forbidden('You cannot change your own password, email or username here');
      await actor.confirmCredentials(target, body.CurrentPassword, body.Code);
    }
    await checkManages(db, roleId, manages);
    await checkUnique(db, body.Username, body.Email, id);
    const passwordHash = body.Password ? await hashPassword(body.Password) : undefined;

    const row = await withUniqueGuard(() =>
      db.transaction(async (tx) => {
        const updated = await usersRepository.update(tx, id, {
          username: body.Username,
          email: body.Email,
          roleId,
          manages,
          ...(passwordHash ? { passwordHash } : {}),
        });
        if (!updated) return null;
        if (passwordHash || emailChanged) await endSessionsOf(tx, id, self ? actor.accessToken : null);
        await auditService.record(tx, {
          ...actor.audit,
          clientId: updated.manages ?? target.manages,
          action: 'user.update',
          entity: 'user',
          entityId: id,
          before: toUserDto(target),
          // The password itself never enters the log; that it changed does.
          after: { ...toUserDto(updated), CredentialsChanged: Boolean(passwordHash) },
        });
        return updated;
      }),
    );
    if (!row) throw notFound('No such user');
    return toUserDto(row);
  },

  /** Deletes an admin and, with it, every session of theirs. @throws 403 (incl. yourself), 404. */
  async remove(db: Db, actor: UserActor, id: number): Promise<void> {
    const target = await usersRepository.findById(db, id);
    if (!target) throw notFound('No such user');
    if (target.id === actor.id) throw forbidden('You cannot delete your own account');
    authorizeExisting(actor, target);
    await db.transaction(async (tx) => {
      if (!(await usersRepository.delete(tx, id))) return;
      await auditService.record(tx, {
        ...actor.audit,
        clientId: target.manages,
        action: 'user.delete',
        entity: 'user',
        entityId: id,
        before: toUserDto(target),
      });
    });
  },
};

/** May the actor touch this existing account at all (before looking at the requested changes)? */
function authorizeExisting(actor: Actor, target: UserRow) {
  if (target.roleId === Role.Provider || target.manages === null) {
    if (!isProviderAdmin(actor)) throw forbidden('Only provider administrators may do that');
    return;
  }
  if (!canManageAdmins(actor, target.manages))
    throw forbidden('Only a Super Administrator of this municipality may manage its admins');
  if (!canGrantRole(actor, target.roleId as RoleId))
    throw forbidden('You cannot change an account with a higher role than your own');
}

/** May the actor give an account this role and client? */
function authorizeTarget(actor: Actor, roleId: RoleId, manages: number | null) {
  if (roleId === Role.Provider) {
    if (!isProviderAdmin(actor))
      throw forbidden('Only provider administrators may create provider administrators');
    return;
  }
  if (manages === null) {
    if (!isProviderAdmin(actor)) throw forbidden('Only provider administrators may do that');
    return;
  }
  if (!canManageAdmins(actor, manages))
    throw forbidden(
      actor.roleId === Role.SuperAdmin
        ? 'You may only manage admins of your own municipality'
        : 'Only a Super Administrator may manage admins',
    );
  if (!canGrantRole(actor, roleId)) throw forbidden('You cannot grant a role higher than your own');
}

async function checkManages(db: Executor, roleId: RoleId, manages: number | null) {
  if (roleId === Role.Provider) {
    if (manages !== null)
      throw validationFailed(
        'Manages',
        'a provider administrator manages every client, so Manages must be empty',
      );
    return;
  }
  if (manages === null) throw validationFailed('Manages', 'a municipality admin must manage a client');
  if (!(await clientsService.findById(db, manages)))
    throw validationFailed('Manages', 'no such municipality');
}

/**
 * One answer whichever of the two is taken, naming both fields: saying which would let anyone who may
 * create an admin test whether a given person has an account anywhere in the portal (issue 37).
 */
export const NOT_AVAILABLE_MESSAGE = 'That username or email address cannot be used; choose another';
const notAvailable = () =>
  new AppError(409, 'conflict', NOT_AVAILABLE_MESSAGE, [
    { field: 'Username', message: NOT_AVAILABLE_MESSAGE },
    { field: 'Email', message: NOT_AVAILABLE_MESSAGE },
  ]);

async function checkUnique(db: Executor, username: string, email: string, exceptId: number | null) {
  const taken = await usersRepository.findTaken(db, username, email, exceptId);
  if (taken.username || taken.email) throw notAvailable();
}

/** Two saves racing past checkUnique still meet the unique indexes: answer 409, not 500. */
async function withUniqueGuard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw notAvailable();
    throw err;
  }
}
