import type { Contact } from '@opp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providerKeys } from './query-keys';

/** GET /api/contacts/{clientId}: the client's contacts, shown read-only in its settings. */
export const getClientContacts = (clientId: number, signal?: AbortSignal) =>
  api<Contact[]>('GET', `/api/contacts/${clientId}`, { signal });

export const useClientContacts = (clientId: number) =>
  useQuery(
    queryOptions({
      queryKey: providerKeys.contacts(clientId),
      queryFn: ({ signal }) => getClientContacts(clientId, signal),
    }),
  );
