import type { CreateClientBody, PublicClient } from '@opp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providerKeys } from './query-keys';

/** POST /api/client. */
export const createClient = (body: CreateClientBody) => api<PublicClient>('POST', '/api/client', { body });

export const useCreateClient = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: providerKeys.clients() }),
  });
};
