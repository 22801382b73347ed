import type { Contact, ContactBody } from '@opp/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/*
 * The admin side of a municipality's contacts. The query key is the one the public Contact Info modal
 * uses, so a saved contact shows there without waiting for its cache to go stale.
 */
export const contactsKey = (clientId: number) => ['contacts', clientId] as const;

/** GET /api/contacts/{clientId} (signed in, so an inactive client's contacts load too). */
export const getClientContacts = (clientId: number, signal?: AbortSignal) =>
  api<Contact[]>('GET', `/api/contacts/${clientId}`, { signal });

export const useClientContacts = (clientId: number) =>
  useQuery(
    queryOptions({
      queryKey: contactsKey(clientId),
      queryFn: ({ signal }) => getClientContacts(clientId, signal),
    }),
  );

export type ContactDraft = Required<ContactBody> & { ContactID: number | null };

/** Spec §4: a record without an id is created (POST /api/contact), one with an id updated (PUT). */
export function saveContact({ ContactID, ...body }: ContactDraft): Promise<Contact> {
  return ContactID === null
    ? api<Contact>('POST', '/api/contact', { body })
    : api<Contact>('PUT', `/api/contact/${ContactID}`, { body });
}

/** DELETE /api/contact/{contactId}. */
export const deleteContact = (contactId: number) => api<{ ok: true }>('DELETE', `/api/contact/${contactId}`);

export function useSaveContact(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveContact,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKey(clientId) }),
  });
}

export function useDeleteContact(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteContact,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKey(clientId) }),
  });
}
