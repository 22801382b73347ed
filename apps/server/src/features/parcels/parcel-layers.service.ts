import type { Executor } from '../../db/database.ts';
import { parcelsRepository } from './parcels.repository.ts';

/*
 * Whether a client has a parcel map, for the clients feature's public record. It lives apart from
 * parcels.service.ts, which uses the clients service, so the two services never import each other.
 */
export const parcelLayersService = {
  async hasLayer(db: Executor, clientId: number): Promise<boolean> {
    return (await parcelsRepository.findLayer(db, clientId)) !== null;
  },
};
