import { z } from 'zod';
import { safeText } from './common.ts';

/** Public municipality record (spec §3 Client); no internal fields. */
export const PublicClient = z.object({
  ClientID: z.number().int(),
  City: z.string(),
  StateProvince: z.string(),
  Country: z.string(),
  Description: z.string(),
  BannerImage: z.string().nullable(),
  IsActive: z.boolean(),
  IsProduction: z.boolean(),
  AllowsImage: z.boolean(),
  PictureLevel: z.string(),
  AllowPaymentLink: z.boolean(),
  PaymentLink: z.string(),
  ParcelCount: z.number().int(),
  LastUpdated: z.string().nullable(),
});
export type PublicClient = z.infer<typeof PublicClient>;

/** GET /api/client/{state}/{city}. */
export const ClientLookup = z.object({ ClientID: z.number().int(), TokenValid: z.boolean() });
export type ClientLookup = z.infer<typeof ClientLookup>;

export const DEFAULT_TITLE = 'Town of';
export const TITLES = [DEFAULT_TITLE] as const;

const boolish = z.boolean({ error: 'must be true or false' });

/** POST /api/client (provider console). */
export const CreateClientBody = z.object({
  City: safeText(100).pipe(z.string().trim().min(1, { message: 'Client Name is required.' })),
  Country: safeText(100).pipe(z.string().trim().min(1, { message: 'Country is required.' })),
  StateProvince: safeText(100).pipe(z.string().trim().min(1, { message: 'State/Province is required.' })),
  Description: safeText(200).optional().default(''),
  IsActive: boolish.optional().default(true),
  IsProduction: boolish.optional().default(false),
  AllowsImage: boolish.optional().default(true),
  PictureLevel: safeText(100).optional().default('Per Property'),
  AllowPaymentLink: boolish.optional().default(true),
  PaymentLink: safeText(1000).optional().default(''),
});
export type CreateClientBody = z.input<typeof CreateClientBody>;

/** PATCH /api/client/{id}: a municipality admin sends City and Description; a provider admin any field. */
export const UpdateClientBody = z
  .object({
    City: safeText(100).pipe(z.string().trim().min(1, { message: 'City/Town is required.' })),
    Country: safeText(100).pipe(z.string().trim().min(1, { message: 'Country is required.' })),
    StateProvince: safeText(100).pipe(z.string().trim().min(1, { message: 'State/Province is required.' })),
    Description: safeText(200),
    BannerImage: safeText(200).nullable(),
    IsActive: boolish,
    IsProduction: boolish,
    AllowsImage: boolish,
    PictureLevel: safeText(100),
    AllowPaymentLink: boolish,
    PaymentLink: safeText(1000),
  })
  .partial();
export type UpdateClientBody = z.input<typeof UpdateClientBody>;

/** Provider console list row. */
export const ClientListItem = PublicClient;
export const ClientList = z.array(ClientListItem);
