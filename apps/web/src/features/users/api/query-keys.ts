export const usersKeys = {
  byClient: (clientId: number) => ['users', 'client', clientId] as const,
};
