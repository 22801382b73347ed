import type { CreateClientBody, FieldError, PublicClient, UpdateClientBody } from '@opp/contracts';

/** The client form as the inputs hold it (the four toggles as booleans). */
export interface ClientFormValues {
  City: string;
  Country: string;
  StateProvince: string;
  Description: string;
  IsActive: boolean;
  IsProduction: boolean;
  AllowsImage: boolean;
  PictureLevel: string;
  AllowPaymentLink: boolean;
  PaymentLink: string;
  PublishOwnerNames: boolean;
  OwnerNameSearch: boolean;
}

export type ClientFormErrors = Partial<Record<keyof ClientFormValues, string>>;

export const DEFAULT_PICTURE_LEVEL = 'Per Property';

/** Spec §4 new-client defaults: active, image allowed, payment link allowed, Test type. */
export const NEW_CLIENT: ClientFormValues = {
  City: '',
  Country: 'United States',
  StateProvince: '',
  Description: '',
  IsActive: true,
  IsProduction: false,
  AllowsImage: true,
  PictureLevel: DEFAULT_PICTURE_LEVEL,
  AllowPaymentLink: true,
  PaymentLink: '',
  PublishOwnerNames: true,
  OwnerNameSearch: true,
};

export const clientToForm = (c: PublicClient): ClientFormValues => ({
  City: c.City,
  Country: c.Country,
  StateProvince: c.StateProvince,
  Description: c.Description,
  IsActive: c.IsActive,
  IsProduction: c.IsProduction,
  AllowsImage: c.AllowsImage,
  PictureLevel: c.PictureLevel,
  AllowPaymentLink: c.AllowPaymentLink,
  PaymentLink: c.PaymentLink,
  PublishOwnerNames: c.PublishOwnerNames,
  OwnerNameSearch: c.OwnerNameSearch,
});

/** Spec §5: creation requires these three, with these messages (update has no client-side checks). */
export function validateNewClient(v: ClientFormValues): ClientFormErrors {
  const errors: ClientFormErrors = {};
  if (!v.City.trim()) errors.City = 'Client Name is required.';
  if (!v.Country.trim()) errors.Country = 'Country is required.';
  if (!v.StateProvince.trim()) errors.StateProvince = 'State/Province is required.';
  return errors;
}

export const formToBody = (v: ClientFormValues): CreateClientBody & UpdateClientBody => ({
  City: v.City.trim(),
  Country: v.Country.trim(),
  StateProvince: v.StateProvince.trim(),
  Description: v.Description.trim(),
  IsActive: v.IsActive,
  IsProduction: v.IsProduction,
  AllowsImage: v.AllowsImage,
  PictureLevel: v.AllowsImage ? v.PictureLevel : '',
  AllowPaymentLink: v.AllowPaymentLink,
  PaymentLink: v.AllowPaymentLink ? v.PaymentLink.trim() : '',
  PublishOwnerNames: v.PublishOwnerNames,
  OwnerNameSearch: v.OwnerNameSearch,
});

const FIELDS = new Set<string>(Object.keys(NEW_CLIENT));

/** The server's field errors placed on the matching inputs; the rest stay for a general message. */
export function serverFieldErrors(fields: FieldError[]): { byField: ClientFormErrors; other: string[] } {
  const byField: ClientFormErrors = {};
  const other: string[] = [];
  for (const f of fields) {
    if (FIELDS.has(f.field)) byField[f.field as keyof ClientFormValues] ??= f.message;
    else other.push(f.message);
  }
  return { byField, other };
}
