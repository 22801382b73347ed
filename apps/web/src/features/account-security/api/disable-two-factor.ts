import type { TwoFactorCodeBody } from '@opp/contracts';
import { api } from '@/lib/api-client';

/** POST /api/two-factor/disable: turns it off with a current code or a recovery code. */
export const disableTwoFactor = (body: TwoFactorCodeBody) =>
  api<{ ok: true }>('POST', '/api/two-factor/disable', { body });
