import type { TwoFactorCodeBody, TwoFactorRecoveryCodesResponse } from '@opp/contracts';
import { api } from '@/lib/api-client';

/** POST /api/two-factor/recovery-codes: a current code from the app buys a fresh set; the old ones stop working. */
export const replaceRecoveryCodes = (body: TwoFactorCodeBody) =>
  api<TwoFactorRecoveryCodesResponse>('POST', '/api/two-factor/recovery-codes', { body });
