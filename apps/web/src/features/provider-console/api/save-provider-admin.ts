import { Role, type User, type UserBody } from '@opp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providerKeys } from './query-keys';

export interface ProviderAdminInput {
  UserId: number | null;
  Username: string;
  Email: string;
  /** Sent only when non-empty: an edit without a password keeps the old one. */
  Password: string;
  /** Changing your own password, email or username: your current password, and a code when two-factor is on. */
  CurrentPassword?: string;
  Code?: string;
}

/** POST /api/user to create, PUT /api/user/{id} to change; always a provider admin (RoleID 1, no client). */
export const saveProviderAdmin = (input: ProviderAdminInput) => {
  const body: UserBody = {
    UserId: input.UserId,
    Username: input.Username,
    Email: input.Email,
    RoleID: Role.Provider,
    Manages: null,
    ...(input.Password ? { Password: input.Password } : {}),
    ...(input.CurrentPassword ? { CurrentPassword: input.CurrentPassword } : {}),
    ...(input.Code ? { Code: input.Code } : {}),
  };
  return input.UserId === null
    ? api<User>('POST', '/api/user', { body })
    : api<User>('PUT', `/api/user/${input.UserId}`, { body });
};

export const useSaveProviderAdmin = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProviderAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: providerKeys.admins() }),
  });
};
