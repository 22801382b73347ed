import type { RoleId, User, UserBody } from '@opp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usersKeys } from './query-keys';

export interface AdminDraft {
  UserId: number | null;
  Username: string;
  Email: string;
  RoleID: RoleId;
  Manages: number;
  /** Sent only when non-empty (spec §5). */
  Password: string;
}

/** Spec §4: a record without an id is created (POST /api/user), one with an id updated (PUT). */
export function saveAdmin(draft: AdminDraft): Promise<User> {
  const body: UserBody = {
    UserId: draft.UserId,
    Username: draft.Username.trim(),
    Email: draft.Email.trim(),
    RoleID: draft.RoleID,
    Manages: draft.Manages,
    ...(draft.Password ? { Password: draft.Password } : {}),
  };
  return draft.UserId === null
    ? api<User>('POST', '/api/user', { body })
    : api<User>('PUT', `/api/user/${draft.UserId}`, { body });
}

export function useSaveAdmin(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.byClient(clientId) }),
  });
}
