/** Per user: one browser may sign in as someone else after a logout. */
export const twoFactorKeys = {
  all: ['two-factor'] as const,
  status: (userId: number) => ['two-factor', userId] as const,
};
