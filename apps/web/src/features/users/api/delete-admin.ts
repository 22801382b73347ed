import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usersKeys } from './query-keys';

/** DELETE /api/user/{userId}. */
export const deleteAdmin = (userId: number) => api<{ ok: true }>('DELETE', `/api/user/${userId}`);

export function useDeleteAdmin(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.byClient(clientId) }),
  });
}
