import type { PublicClient, UpdateClientBody } from '@opp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providerKeys } from './query-keys';

/** PATCH /api/client/{id}: a provider admin may send every field. */
export const updateClient = ({ id, body }: { id: number; body: UpdateClientBody }) =>
  api<PublicClient>('PATCH', `/api/client/${id}`, { body });

export const useUpdateClient = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: providerKeys.clients() }),
  });
};
