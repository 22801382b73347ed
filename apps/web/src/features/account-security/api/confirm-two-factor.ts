import type { TwoFactorCodeBody, TwoFactorConfirmResponse } from '@opp/contracts';
import { api } from '@/lib/api-client';

/** POST /api/two-factor/confirm: turns it on with a code from the app; answers the recovery codes once. */
export const confirmTwoFactor = (body: TwoFactorCodeBody) =>
  api<TwoFactorConfirmResponse>('POST', '/api/two-factor/confirm', { body });
