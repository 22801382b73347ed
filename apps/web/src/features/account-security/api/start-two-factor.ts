import type { TwoFactorStartResponse } from '@opp/contracts';
import { api } from '@/lib/api-client';

/** POST /api/two-factor/start: a new secret and its otpauth:// URI (replaces an unfinished one). */
export const startTwoFactor = () => api<TwoFactorStartResponse>('POST', '/api/two-factor/start');
