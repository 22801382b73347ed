import { accountKeys } from '@/features/auth/api/account-data';

export const usersKeys = {
  byClient: (clientId: number) => [...accountKeys.all, 'users', 'client', clientId] as const,
};
