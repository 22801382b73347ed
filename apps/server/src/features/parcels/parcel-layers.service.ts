import { ParcelLayerKey, type ParcelLayerEntry, type ParcelLayerHistory } from '@opp/contracts';
import type { Executor } from '../../db/database.ts';
import { auditService } from '../audit/audit.service.ts';
import type { SessionUser } from '../auth/sessions.repository.ts';
import { parcelsRepository } from './parcels.repository.ts';

/** How many earlier layers the console's history lists. */
const HISTORY_LIMIT = 50;

/*
 * Whether a client has a parcel map, for the clients feature's public record, and which layer is live
 * and which came before, for the provider console. It lives apart from parcels.service.ts, which uses
 * the clients service, so the two services never import each other. The history is the audit log's
 * `parcels.import` entries, written in the same transaction as each layer.
 */
export const parcelLayersService = {
  async hasLayer(db: Executor, clientId: number): Promise<boolean> {
    return (await parcelsRepository.findLayer(db, clientId)) !== null;
  },

  /** The live layer and the layers loaded before, as `user` may read the audit log. */
  async history(db: Executor, user: SessionUser, clientId: number): Promise<ParcelLayerHistory> {
    const live = await parcelsRepository.findLayer(db, clientId);
    const { Entries } = await auditService.list(db, user, {
      ClientID: clientId,
      Action: 'parcels.import',
      page: 1,
      pagesize: HISTORY_LIMIT,
    });
    const history: (ParcelLayerEntry & { layerId: string | null })[] = Entries.map((e) => {
      const after = (e.After ?? {}) as { FileName?: unknown; Key?: unknown; Shapes?: unknown };
      const key = ParcelLayerKey.safeParse(after.Key);
      return {
        layerId: e.EntityId,
        FileName: typeof after.FileName === 'string' ? after.FileName : '',
        Key: key.success ? key.data : 'MapLot',
        Shapes: typeof after.Shapes === 'number' ? after.Shapes : 0,
        ImportedAt: e.At,
        ImportedBy: e.ActorUsername,
      };
    });
    const strip = ({ layerId: _, ...entry }: (typeof history)[number]): ParcelLayerEntry => entry;
    return {
      // A layer loaded without an audit entry (a demo town's) is live all the same.
      Live: live && {
        FileName: live.fileName,
        Key: live.keyField,
        Shapes: live.shapeCount,
        ImportedAt: new Date(live.importedAt).toISOString(),
        ImportedBy: history.find((h) => h.layerId === String(live.id))?.ImportedBy ?? null,
      },
      History: history.map(strip),
    };
  },
};
