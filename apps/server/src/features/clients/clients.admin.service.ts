import {
  isProviderAdmin,
  resolveStateName,
  TITLES,
  type Actor,
  type PublicClient,
  type UpdateClientBody,
} from '@opp/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { conflict, forbidden, notFound, validationFailed } from '../../errors.ts';
import { auditService, type auditActorOf } from '../audit/audit.service.ts';
import { bannersService } from '../files/files.service.ts';
import { rollsService } from '../rolls/rolls.service.ts';
import { cityKey, clientsRepository, toPublicClient, type ClientRow } from './clients.repository.ts';
import { assertTownNameAvailable, keepsOldName, MAX_OLD_NAMES, townNameTaken } from './town-names.ts';

export type ParsedUpdateClientBody = z.output<typeof UpdateClientBody>;
type AuditContext = ReturnType<typeof auditActorOf>;

/** What a municipality's own admins (RoleID 2 and 3) may change; provider admins may change every field. */
export const MUNICIPALITY_EDITABLE = ['City', 'Description', 'BannerImage'] as const;

const FIELD_TO_COLUMN = {
  Country: 'country',
  IsActive: 'isActive',
  IsProduction: 'isProduction',
  AllowsImage: 'allowsImage',
  PictureLevel: 'pictureLevel',
  AllowPaymentLink: 'allowPaymentLink',
  PaymentLink: 'paymentLink',
  StateProvince: 'stateProvince',
  PublishOwnerNames: 'publishOwnerNames',
  OwnerNameSearch: 'ownerNameSearch',
} as const satisfies Record<string, keyof ClientRow>;

export const clientsAdminService = {
  /**
   * PATCH /api/client/{id}. The caller is already known to administer this client. A municipality
   * admin may change City, Description ("Town of" + city) and BannerImage; sending any other field with
   * a different value is refused (403), sending it unchanged is ignored. A rename (of the city, or of
   * the state by a provider admin) records the old name as an alias in the same transaction, so old
   * public URLs still find the town, within the bounds of town-names.ts (keepsOldName, MAX_OLD_NAMES). BannerImage must be one of this client's uploaded banners (or
   * null); banner files the client no longer shows are deleted.
   * @throws 404, 403, 400 (naming the field), 409 (city taken in that state).
   */
  async update(
    db: Db,
    actor: Actor,
    clientId: number,
    body: ParsedUpdateClientBody,
    audit: AuditContext,
  ): Promise<PublicClient> {
    const client = await clientsRepository.findById(db, clientId);
    if (!client) throw notFound('Unable to find municipality');
    const provider = isProviderAdmin(actor);
    if (!provider) {
      for (const [field, column] of Object.entries(FIELD_TO_COLUMN)) {
        const value = body[field as keyof typeof FIELD_TO_COLUMN];
        if (value !== undefined && value !== client[column])
          throw forbidden(`Only provider administrators may change ${field}`);
      }
    }

    const city = body.City !== undefined ? body.City.replace(/\s+/g, ' ') : client.city;
    let state = client.stateProvince;
    if (provider && body.StateProvince !== undefined && body.StateProvince !== client.stateProvince) {
      const resolved = resolveStateName(body.StateProvince);
      if (!resolved)
        throw validationFailed('StateProvince', 'State/Province must be one of the 50 US states.');
      state = resolved;
    }

    let description = client.description;
    if (body.Description !== undefined) {
      description = body.Description.trim().replace(/\s+/g, ' ');
      if (!provider && !TITLES.some((t) => description === `${t} ${city}`))
        throw validationFailed(
          'Description',
          `must be the title followed by the city ("${TITLES[0]} ${city}")`,
        );
    }

    if (body.BannerImage) {
      const file = await bannersService.findMeta(db, body.BannerImage);
      if (!file || file.kind !== 'banner' || file.clientId !== clientId)
        throw validationFailed('BannerImage', 'is not an image uploaded for this municipality');
    }

    const changes: Partial<ClientRow> = { city, stateProvince: state, description };
    if (body.BannerImage !== undefined) changes.bannerImage = body.BannerImage;
    if (provider) {
      if (body.Country !== undefined) changes.country = body.Country;
      if (body.IsActive !== undefined) changes.isActive = body.IsActive;
      if (body.IsProduction !== undefined) changes.isProduction = body.IsProduction;
      if (body.AllowsImage !== undefined) changes.allowsImage = body.AllowsImage;
      if (body.PictureLevel !== undefined) changes.pictureLevel = body.PictureLevel.trim();
      // Owner privacy takes effect within TOWN_CACHE_MS on every node (owner-privacy.ts).
      if (body.PublishOwnerNames !== undefined) changes.publishOwnerNames = body.PublishOwnerNames;
      if (body.OwnerNameSearch !== undefined) changes.ownerNameSearch = body.OwnerNameSearch;
      const allowPayment = body.AllowPaymentLink ?? client.allowPaymentLink;
      changes.allowPaymentLink = allowPayment;
      // A denied payment link is stored empty, as the console form clears it; the contract checked and
      // normalised a sent one.
      changes.paymentLink = allowPayment ? (body.PaymentLink ?? client.paymentLink) : '';
    }

    // A roll published before owner privacy existed cannot be searched without owner names (its rows
    // lack owner_words): rather than a setting that hides names but still finds parcels by them, the
    // town publishes its roll again first.
    const searchable = (c: Pick<ClientRow, 'publishOwnerNames' | 'ownerNameSearch'>) =>
      c.publishOwnerNames && c.ownerNameSearch;
    if (
      searchable(client) &&
      !searchable({ ...client, ...changes }) &&
      client.activeRollId !== null &&
      !(await rollsService.hasOwnerWords(db, client.activeRollId))
    )
      throw conflict(
        `${city}'s roll was published before owner privacy existed, so its search would still find parcels by owner name. Publish the roll again, then change this setting.`,
        body.PublishOwnerNames === false ? 'PublishOwnerNames' : 'OwnerNameSearch',
      );

    const renamed = cityKey(city) !== cityKey(client.city) || state !== client.stateProvince;
    // Nor a look-alike or an old name of another town there, active or not; the answer names none.
    if (renamed) await assertTownNameAvailable(db, state, city, clientId);
    const now = new Date();
    if (renamed) changes.citySince = now;

    try {
      const updated = await db.transaction(async (tx) => {
        const row = await clientsRepository.update(tx, clientId, changes);
        if (!row) throw notFound('Unable to find municipality');
        if (renamed)
          await clientsRepository.moveAliases(
            tx,
            clientId,
            keepsOldName(client, now) ? { stateName: client.stateProvince, city: client.city } : null,
            { stateName: state, city },
            MAX_OLD_NAMES,
          );
        if (body.BannerImage !== undefined)
          await bannersService.deleteBannersExcept(tx, clientId, body.BannerImage ?? '');
        await auditService.record(tx, {
          ...audit,
          clientId,
          action: 'client.update',
          entity: 'client',
          entityId: clientId,
          before: toPublicClient(client),
          after: toPublicClient(row),
        });
        return row;
      });
      return toPublicClient(updated);
    } catch (err) {
      if (isUniqueViolation(err)) throw townNameTaken(city, state);
      throw err;
    }
  },
};
