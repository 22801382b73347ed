import { z } from 'zod';
import { linkField, safeText } from './common.ts';
import { EMAIL } from './links.ts';

export const Contact = z.object({
  ContactID: z.number().int(),
  ClientID: z.number().int(),
  Title: z.string(),
  ContactUrl: z.string(),
  HoursOfOperation: z.string(),
  Telephone: z.string(),
  ContactEmail: z.string(),
  FreeFormMessage: z.string(),
});
export type Contact = z.infer<typeof Contact>;
export const ContactList = z.array(Contact);

const optional = (max: number) => safeText(max).optional().default('');

/** POST /api/contact and PUT /api/contact/{id}. Empty strings are allowed for every field but Title. */
export const ContactBody = z.object({
  ClientID: z.number({ error: 'ClientID must be a number' }).int().positive().max(2_147_483_647),
  Title: safeText(200).pipe(z.string().trim().min(1, { message: 'Name/Title is required.' })),
  ContactUrl: linkField(1000, 'Home URL must be a web address (https://…)').optional().default(''),
  HoursOfOperation: optional(500),
  Telephone: optional(50).refine((v) => v === '' || /^[0-9+().\-\s x#ext]{7,50}$/i.test(v), {
    message: 'Phone Number may hold only digits, spaces and + ( ) - .',
  }),
  ContactEmail: optional(254)
    .transform((v) => v.trim())
    .refine((v) => v === '' || EMAIL.test(v), { message: 'Email Address is not a valid email' }),
  FreeFormMessage: optional(2000),
});
export type ContactBody = z.input<typeof ContactBody>;
