import { DEFAULT_TITLE, resolveStateName, type CreateClientBody, type PublicClient } from '@opp/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { conflict, notFound, validationFailed } from '../../errors.ts';
import { auditService, type auditActorOf } from '../audit/audit.service.ts';
import { rollsService } from '../rolls/rolls.service.ts';
import { reclaimStaleRun } from '../rolls/roll-publishing.service.ts';
import { clientsRepository, toPublicClient } from './clients.repository.ts';
import { assertTownNameAvailable, townNameTaken } from './town-names.ts';
import { clientsProviderRepository, type DeletedClientCounts } from './clients.provider.repository.ts';

type CreateClientInput = z.output<typeof CreateClientBody>;
type AuditContext = ReturnType<typeof auditActorOf>;

export const clientsProviderService = {
  /** Every client, inactive ones included, sorted by City (spec §9). */
  async list(db: Db): Promise<PublicClient[]> {
    return (await clientsRepository.listAll(db)).map(toPublicClient);
  },

  /**
   * Creates a client from the console form. The state must be one of the 50 US states (name or
   * abbreviation; the canonical name is stored, since public URLs carry it), the city must be new in
   * that state (town-names.ts: nor look like, nor be an old name of, another town there), and an allowed
   * payment link must be a web address. A denied payment link is stored
   * empty, as the form clears it. Throws 400 naming the field, or 409 for a duplicate city.
   */
  async create(db: Db, body: CreateClientInput, audit: AuditContext): Promise<PublicClient> {
    const state = resolveStateName(body.StateProvince);
    if (!state) throw validationFailed('StateProvince', 'State/Province must be one of the 50 US states.');
    const city = body.City.replace(/\s+/g, ' ');
    // The contract checked and normalised the link; a denied one is stored empty, as the form clears it.
    const paymentLink = body.AllowPaymentLink ? body.PaymentLink : '';
    await assertTownNameAvailable(db, state, city, null);
    try {
      const row = await db.transaction(async (tx) => {
        const created = await clientsRepository.insert(tx, {
          city,
          stateProvince: state,
          country: body.Country,
          description: body.Description.trim() || `${DEFAULT_TITLE} ${city}`,
          bannerImage: null,
          isActive: body.IsActive,
          isProduction: body.IsProduction,
          allowsImage: body.AllowsImage,
          pictureLevel: body.PictureLevel.trim(),
          allowPaymentLink: body.AllowPaymentLink,
          paymentLink,
          publishOwnerNames: body.PublishOwnerNames,
          ownerNameSearch: body.OwnerNameSearch,
          parcelCount: 0,
        });
        await auditService.record(tx, {
          ...audit,
          clientId: created.id,
          action: 'client.create',
          entity: 'client',
          entityId: created.id,
          after: toPublicClient(created),
        });
        return created;
      });
      return toPublicClient(row);
    } catch (err) {
      // Two creates racing past the check above: the unique index has the last word.
      if (isUniqueViolation(err)) throw townNameTaken(city, state);
      throw err;
    }
  },

  /**
   * Deletes a client and everything that is its own (properties, contacts, images, import history, old
   * city names) in one transaction, and ends its admins' sessions: their accounts stay, managing
   * nothing, until a provider admin reassigns or removes them. Refused with 409 while a roll import for
   * the client is running, so the import cannot fail half-way against a vanished client.
   */
  async delete(db: Db, id: number, audit: AuditContext): Promise<DeletedClientCounts> {
    await reclaimStaleRun(db, id);
    return db.transaction(async (tx) => {
      const client = await clientsProviderRepository.lockById(tx, id);
      if (!client) throw notFound('No such client');
      const running = await rollsService.findRunning(tx, id);
      if (running)
        throw conflict(
          `A roll import (${running.fileName}) is running for this client; delete it when the import has finished.`,
        );
      const owned = await clientsProviderRepository.countOwned(tx, id);
      await clientsProviderRepository.revokeAdminSessions(tx, id);
      // Its rolls go first, while their runs still say whose they are; each roll's tables are dropped
      // whole, as fast for a county as for a hamlet.
      const properties = await rollsService.deleteClientRolls(tx, id);
      await clientsProviderRepository.delete(tx, id);
      const counts: DeletedClientCounts = { properties, ...owned };
      // The entry outlives the client (the log has no foreign key), so who deleted what stays known.
      await auditService.record(tx, {
        ...audit,
        clientId: id,
        action: 'client.delete',
        entity: 'client',
        entityId: id,
        before: { ...toPublicClient(client), Deleted: counts },
      });
      return counts;
    });
  },
};
