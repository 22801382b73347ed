import { canAdministerClient, type Actor, type Contact, type ContactBody } from '@opp/contracts';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/database.ts';
import { forbidden, notFound, validationFailed } from '../../errors.ts';
import { auditService, type auditActorOf } from '../audit/audit.service.ts';
import { clientsService } from '../clients/clients.service.ts';
import { contactsRepository, toContactDto, type ContactValues } from './contacts.repository.ts';

export type ParsedContactBody = z.output<typeof ContactBody>;
type AuditContext = ReturnType<typeof auditActorOf>;

const NO_MUNICIPALITY = 'Unable to find municipality';

/** Public contacts of a municipality, and their upkeep by its admins (spec §2 Contact Info, §7). */
export const contactsService = {
  /** Whether the client has any contact (the demo adds its own only to a town with none). */
  async hasAny(db: Executor, clientId: number): Promise<boolean> {
    return (await contactsRepository.listByClient(db, clientId)).length > 0;
  },

  /** A contact stored as given, without actor or audit: how the demo seeds its towns. */
  async insertSeeded(db: Executor, values: ContactValues): Promise<void> {
    await contactsRepository.insert(db, values);
  },

  /**
   * A client's contacts. The public sees active clients only; the client's own admins (and provider
   * admins) also see an inactive client's, so they can prepare it before it goes live.
   * @throws 404 when the client does not exist or is hidden from this caller.
   */
  async list(db: Db, actor: Actor | null, clientId: number): Promise<Contact[]> {
    const client = await clientsService.findById(db, clientId);
    if (!client || (!client.isActive && !canAdministerClient(actor, clientId)))
      throw notFound(NO_MUNICIPALITY);
    return (await contactsRepository.listByClient(db, clientId)).map(toContactDto);
  },

  /** @throws 403 (not an admin of body.ClientID), 404 (no such client). */
  async create(db: Db, actor: Actor, body: ParsedContactBody, audit: AuditContext): Promise<Contact> {
    if (!canAdministerClient(actor, body.ClientID))
      throw forbidden('You do not administer this municipality');
    if (!(await clientsService.findById(db, body.ClientID))) throw notFound(NO_MUNICIPALITY);
    return db.transaction(async (tx) => {
      const saved = toContactDto(await contactsRepository.insert(tx, toValues(body)));
      await auditService.record(tx, {
        ...audit,
        clientId: saved.ClientID,
        action: 'contact.create',
        entity: 'contact',
        entityId: saved.ContactID,
        after: saved,
      });
      return saved;
    });
  },

  /** @throws 404 (no such contact), 403 (another municipality's), 400 (moving it to another client). */
  async update(
    db: Db,
    actor: Actor,
    id: number,
    body: ParsedContactBody,
    audit: AuditContext,
  ): Promise<Contact> {
    const existing = await contactsRepository.findById(db, id);
    if (!existing) throw notFound('No such contact');
    if (!canAdministerClient(actor, existing.clientId))
      throw forbidden('You do not administer this municipality');
    if (body.ClientID !== existing.clientId)
      throw validationFailed('ClientID', 'a contact cannot move to another municipality');
    const { clientId, ...values } = toValues(body);
    return db.transaction(async (tx) => {
      const row = await contactsRepository.update(tx, clientId, id, values);
      if (!row) throw notFound('No such contact');
      const saved = toContactDto(row);
      await auditService.record(tx, {
        ...audit,
        clientId,
        action: 'contact.update',
        entity: 'contact',
        entityId: id,
        before: toContactDto(existing),
        after: saved,
      });
      return saved;
    });
  },

  /** @throws 404, 403. */
  async remove(db: Db, actor: Actor, id: number, audit: AuditContext): Promise<void> {
    const existing = await contactsRepository.findById(db, id);
    if (!existing) throw notFound('No such contact');
    if (!canAdministerClient(actor, existing.clientId))
      throw forbidden('You do not administer this municipality');
    await db.transaction(async (tx) => {
      if (!(await contactsRepository.delete(tx, existing.clientId, id))) return;
      await auditService.record(tx, {
        ...audit,
        clientId: existing.clientId,
        action: 'contact.delete',
        entity: 'contact',
        entityId: id,
        before: toContactDto(existing),
      });
    });
  },
};

function toValues(body: ParsedContactBody): ContactValues {
  return {
    clientId: body.ClientID,
    title: body.Title.trim(),
    // The contract's normalised link (links.ts): with its scheme, so every page can use it as is.
    contactUrl: body.ContactUrl,
    hoursOfOperation: body.HoursOfOperation.trim(),
    telephone: body.Telephone.trim(),
    contactEmail: body.ContactEmail.trim(),
    freeFormMessage: body.FreeFormMessage.trim(),
  };
}
