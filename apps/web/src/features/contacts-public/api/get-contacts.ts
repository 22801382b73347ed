import type { Contact } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/contacts/{clientId}: the municipality's public contacts. */
export const getContacts = (clientId: number, signal?: AbortSignal) =>
  api<Contact[]>('GET', `/api/contacts/${clientId}`, { signal });

export const getContactsQueryOptions = (clientId: number) =>
  queryOptions({
    queryKey: ['contacts', clientId],
    queryFn: ({ signal }) => getContacts(clientId, signal),
    staleTime: 5 * 60_000,
  });

export const useContacts = (clientId: number, enabled = true) =>
  useQuery({ ...getContactsQueryOptions(clientId), enabled });
