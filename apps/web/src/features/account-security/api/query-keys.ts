import { accountKeys } from '@/features/auth/api/account-data';

/** Per user: one browser may sign in as someone else after a logout. */
export const twoFactorKeys = {
  all: [...accountKeys.all, 'two-factor'] as const,
  status: (userId: number) => [...twoFactorKeys.all, userId] as const,
};
