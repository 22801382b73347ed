import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providerKeys } from './query-keys';

/** DELETE /api/client/{id}: the client and everything that is its own. */
export const deleteClient = (id: number) => api<{ ok: true }>('DELETE', `/api/client/${id}`);

export const useDeleteClient = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteClient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: providerKeys.clients() }),
  });
};
