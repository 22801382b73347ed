import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/*
 * TOTP (RFC 6238) through otpauth: HMAC-SHA1, 30-second steps, 6 digits — the defaults every
 * authenticator app understands. What is the portal's own: a code works once (only steps after the last
 * one used), and the recovery codes.
 */

export const STEP_SECONDS = 30;

const totpFor = (secret: string, digits = 6) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits, period: STEP_SECONDS });

/** 160 random bits, the key size RFC 4226 recommends for HMAC-SHA1. */
export const generateSecret = () => new Secret({ size: 20 }).base32;

export const stepAt = (ms: number) => Math.floor(ms / 1000 / STEP_SECONDS);

/** The code an authenticator app shows at `ms`. */
export const totp = (secret: string, ms: number, digits = 6) =>
  totpFor(secret, digits).generate({ timestamp: ms });

/**
 * The step a code matches, within one step either side of now (clock drift) and strictly after the
 * last step already used (a code works once), or null.
 */
export function matchStep(secret: string, code: string, ms: number, lastStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret).validate({ token: code, timestamp: ms, window: 1 });
  if (delta === null) return null;
  const step = stepAt(ms) + delta;
  return lastStep === null || step > lastStep ? step : null;
}

export const otpauthUri = (issuer: string, account: string, secret: string) =>
  new TOTP({ issuer, label: account, secret: Secret.fromBase32(secret), period: STEP_SECONDS }).toString();

/** Ten codes of 50 random bits each, written `abcde-fghij` for reading aloud and typing. */
export function generateRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const s = new Secret({ size: 7 }).base32.slice(0, 10).toLowerCase();
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
}

export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
export const looksLikeRecoveryCode = (code: string) => /^[a-z2-7]{10}$/.test(normalizeRecoveryCode(code));
export const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
