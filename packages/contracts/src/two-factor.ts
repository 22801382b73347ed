import { z } from 'zod';

/*
 * Two-factor sign-in (TOTP, RFC 6238): enrolment and removal for the signed-in admin. The login itself
 * takes the code in LoginBody.Code.
 */

/** A 6-digit authenticator code, or a recovery code (`xxxxx-xxxxx`). Spaces are ignored. */
export const TwoFactorCode = z
  .string({ error: 'Code is required' })
  .trim()
  .min(1, { message: 'Code is required' })
  .max(32, { message: 'Code is at most 32 characters' })
  .refine((s) => /^[0-9A-Za-z -]+$/.test(s), { message: 'Code may hold only digits, letters and -' });

export const TwoFactorCodeBody = z.object({ Code: TwoFactorCode });
export type TwoFactorCodeBody = z.infer<typeof TwoFactorCodeBody>;

export const TwoFactorStatus = z.object({
  Enabled: z.boolean(),
  /** Enrolment started (a secret was issued) but not confirmed with a code yet. */
  Pending: z.boolean(),
  RecoveryCodesLeft: z.number().int(),
  /** The provider requires two-factor sign-in for this account. */
  Required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

export const TwoFactorStartResponse = z.object({
  /** Base32 secret, for typing into an authenticator app by hand. */
  Secret: z.string(),
  /** otpauth://totp/… URI, for a QR code. */
  OtpauthUri: z.string(),
});
export type TwoFactorStartResponse = z.infer<typeof TwoFactorStartResponse>;

export const TwoFactorConfirmResponse = z.object({
  Enabled: z.literal(true),
  /** Shown once: each signs in once when the authenticator is lost. */
  RecoveryCodes: z.array(z.string()),
});
export type TwoFactorConfirmResponse = z.infer<typeof TwoFactorConfirmResponse>;

/** A fresh set of recovery codes (the old ones stop working), shown once like at enrolment. */
export const TwoFactorRecoveryCodesResponse = TwoFactorConfirmResponse.pick({ RecoveryCodes: true });
export type TwoFactorRecoveryCodesResponse = z.infer<typeof TwoFactorRecoveryCodesResponse>;

/** Why a recovery code cannot buy new recovery codes, and what to do instead. */
export const RECOVERY_CODES_NEED_APP_MESSAGE =
  'Enter a current code from your authenticator app: a recovery code cannot be used to get new ones. ' +
  'If you no longer have the app, an administrator must reset two-factor sign-in for your account';

export const TWO_FACTOR_REQUIRED_MESSAGE = 'Enter the code from your authenticator app';
export const TWO_FACTOR_ENROLMENT_MESSAGE =
  'Provider administrators must turn on two-factor sign-in before continuing';
