import { NOMINAL_SALE_PRICE } from '@opp/contracts';

/*
 * What makes two parcels the same kind of property, and a sale a market sale (docs/comparable-sales.md).
 */

/**
 * The property class of a record: the group of its use code (the record's `LandCode`, which every
 * built-in format and example mapping fills with the town's use code; else the first word of its
 * `PropertyCode`). Per format:
 * - Massachusetts (massgis-l3 `USE_CODE`, Cambridge's `StateClassCode`): the state class is the first
 *   three digits (`1021`, a town's sub-code of condominiums, is class `102`); codes written without their
 *   leading zero (`13` for mixed use `013`) are padded back to three;
 * - Vision (`REM_USE_CODE`, in NH and MA): its use codes are families of four characters whose first
 *   three digits are the family (`1010` and `1013` are both `101`, single family; `342R` is `342`);
 * - Maine (`LAND_USE` of the GeoLibrary standard) and any other code that does not start with a digit:
 *   the code itself, compared without regard to case or spacing.
 * Null when the record has no code: its class is then not compared.
 */
export function propertyClassOf(record: {
  LandCode?: string;
  PropertyCode?: { UserDefinedValue?: string } | null;
}): string | null {
  const code = (
    record.LandCode?.trim() ||
    record.PropertyCode?.UserDefinedValue?.trim().split(/\s+/)[0] ||
    ''
  )
    .toUpperCase()
    .replace(/\s+/g, ' ');
  if (!code) return null;
  const digits = /^\d+/.exec(code)?.[0];
  if (!digits) return code;
  return digits.length >= 3 ? digits.slice(0, 3) : digits.padStart(3, '0');
}

/**
 * A qualification that marks a sale as not arm's length: Vision's `U` (unqualified), alone or opening a
 * code (`U`, `U-FAMILY`, `U 1`), or words saying so ("Unqualified", "Non-arm's length", "Not arm's
 * length").
 */
const NOT_ARMS_LENGTH = /^U(?:$|[^A-Z0-9])|\bUNQUALIFIED\b|\bNON[- ]?ARM|\bNOT ARM/;

export type NotArmsLengthReason = 'Qualification' | 'NominalPrice';

/** Why a sale is not arm's length, or null when it is. */
export function notArmsLength(sale: {
  SalePrice: number | null;
  SaleType: string;
}): NotArmsLengthReason | null {
  if (NOT_ARMS_LENGTH.test(sale.SaleType.trim().toUpperCase())) return 'Qualification';
  if (sale.SalePrice === null || sale.SalePrice < NOMINAL_SALE_PRICE) return 'NominalPrice';
  return null;
}

/** Whole days since 1970-01-01 of a YYYY-MM-DD date. */
export const dayOf = (date: string) =>
  Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;

/** The YYYY-MM-DD date of a day number. */
export const dateOf = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** The same calendar day `years` earlier (29 February becomes 1 March). */
export function yearsBefore(day: number, years: number): number {
  const d = new Date(day * 86_400_000);
  return Date.UTC(d.getUTCFullYear() - years, d.getUTCMonth(), d.getUTCDate()) / 86_400_000;
}
