import type { FullProperty } from '@opp/contracts';
import type { Executor } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import type { ClientRow } from '../clients/clients.repository.ts';
import { publicClientsService } from '../clients/clients.service.ts';
import { propertiesRepository } from './properties.repository.ts';

export const propertiesService = {
  /** The active client at a state (name or abbreviation) and city; 404 for unknown and inactive ones. */
  townOf(db: Executor, state: string, city: string): Promise<ClientRow> {
    return publicClientsService.findByStateCity(db, state, city);
  },

  /**
   * `GET /api/fullproperty/{account}`: the full §3 record from the town's published roll, with the
   * date the roll was published. Throws 404 when the town has no roll or no such account.
   */
  async fullProperty(db: Executor, town: ClientRow, account: string): Promise<FullProperty> {
    const record =
      town.activeRollId === null
        ? null
        : await propertiesRepository.findRecord(db, town.activeRollId, account);
    if (!record) throw notFound('Unable to find property, invalid property.');
    return { ...record, LastUpdated: town.lastUpdated ? town.lastUpdated.toISOString() : null };
  },
};
