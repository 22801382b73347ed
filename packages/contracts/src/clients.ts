import { z } from 'zod';
import { linkField, safeText } from './common.ts';
import { CONTROL_CHARACTERS } from './links.ts';

const paymentLink = () => linkField(1000, 'Payment Link must be a valid web address.');

/**
 * What a town's published roll dates from (issue 48), as its pages say it: "Values as of 01/01/2013,
 * fiscal year 2014 · published 03/14/2025". Not in the original but LastUpdated.
 */
export const RollDates = z.object({
  /** When the town's roll was last published (ISO date-time), or null. */
  LastUpdated: z.string().nullable(),
  /** The fiscal (tax) year of the roll's values, as the provider or the records give it, or null. */
  TaxYear: z.number().int().nullable().optional(),
  /** The date the roll's values are as of (YYYY-MM-DD), when the provider gave it, or null. */
  ValuationDate: z.string().nullable().optional(),
});
export type RollDates = z.infer<typeof RollDates>;

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
  ...RollDates.shape,
  /**
   * Present (true) when the town has a parcel map (issue 40): its record pages show the parcel's map
   * and abutters and its results a Map view, and ask the server for them only then.
   */
  HasParcelMap: z.literal(true).optional(),
  /**
   * Owner privacy (issue 39; the provider console sets them, the town's admins see them): whether owner
   * names and mailing addresses are published at all (off: withheld for every parcel, as Maine towns
   * that have not voted to publish owners need), and whether text search matches owner names.
   */
  PublishOwnerNames: z.boolean(),
  OwnerNameSearch: z.boolean(),
});
export type PublicClient = z.infer<typeof PublicClient>;

/** GET /api/client/{state}/{city}. */
export const ClientLookup = z.object({ ClientID: z.number().int(), TokenValid: z.boolean() });
export type ClientLookup = z.infer<typeof ClientLookup>;

export const DEFAULT_TITLE = 'Town of';
export const TITLES = [DEFAULT_TITLE] as const;

const boolish = z.boolean({ error: 'must be true or false' });

/**
 * A town's name as it is stored and shown in public addresses: NFKC-normalised (full-width and other
 * compatibility forms become their plain letters), with no control, invisible or text-direction
 * characters, which could make one name look like another (issue 37).
 */
const townName = (required: string) =>
  safeText(100)
    .pipe(z.string().trim().min(1, { message: required }))
    .transform((s) => s.normalize('NFKC'))
    .pipe(
      z
        .string()
        .max(100, { message: 'must be at most 100 characters' })
        .refine((s) => !CONTROL_CHARACTERS.test(s), {
          message: 'must not contain control, invisible or text-direction characters',
        }),
    );

/** POST /api/client (provider console). */
export const CreateClientBody = z.object({
  City: townName('Client Name is required.'),
  Country: safeText(100).pipe(z.string().trim().min(1, { message: 'Country is required.' })),
  StateProvince: safeText(100).pipe(z.string().trim().min(1, { message: 'State/Province is required.' })),
  Description: safeText(200).optional().default(''),
  IsActive: boolish.optional().default(true),
  IsProduction: boolish.optional().default(false),
  AllowsImage: boolish.optional().default(true),
  PictureLevel: safeText(100).optional().default('Per Property'),
  AllowPaymentLink: boolish.optional().default(true),
  PaymentLink: paymentLink().optional().default(''),
  PublishOwnerNames: boolish.optional().default(true),
  OwnerNameSearch: boolish.optional().default(true),
});
export type CreateClientBody = z.input<typeof CreateClientBody>;

/** PATCH /api/client/{id}: a municipality admin sends City and Description; a provider admin any field. */
export const UpdateClientBody = z
  .object({
    City: townName('City/Town is required.'),
    Country: safeText(100).pipe(z.string().trim().min(1, { message: 'Country is required.' })),
    StateProvince: safeText(100).pipe(z.string().trim().min(1, { message: 'State/Province is required.' })),
    Description: safeText(200),
    BannerImage: safeText(200).nullable(),
    IsActive: boolish,
    IsProduction: boolish,
    AllowsImage: boolish,
    PictureLevel: safeText(100),
    AllowPaymentLink: boolish,
    PaymentLink: paymentLink(),
    PublishOwnerNames: boolish,
    OwnerNameSearch: boolish,
  })
  .partial();
export type UpdateClientBody = z.input<typeof UpdateClientBody>;

/** Provider console list row. */
export const ClientListItem = PublicClient;
export const ClientList = z.array(ClientListItem);
