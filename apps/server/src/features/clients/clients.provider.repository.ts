import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/database.ts';
import { clients, sessions, users } from '../../db/schema.ts';
import type { ClientRow } from './clients.repository.ts';

/** What deleting a client removed, for the audit trail and the response. */
export interface DeletedClientCounts {
  properties: number;
  contacts: number;
  images: number;
  admins: number;
}

/** SQL only the provider console needs on clients; the shared lookups live in clients.repository.ts. */
export const clientsProviderRepository = {
  /** Locks the client's row for the rest of the transaction, so a delete and an import cannot interleave. */
  async lockById(tx: Executor, id: number): Promise<ClientRow | null> {
    const [row] = await tx.select().from(clients).where(eq(clients.id, id)).for('update');
    return row ?? null;
  },

  /** What the client's delete will take besides its parcels (rollsRepository.deleteClientRolls counts those). */
  async countOwned(tx: Executor, clientId: number): Promise<Omit<DeletedClientCounts, 'properties'>> {
    const [row] = await queryRows<Omit<DeletedClientCounts, 'properties'>>(
      tx,
      sql`select (select count(*)::int from contacts where client_id = ${clientId}) as contacts,
                 (select count(*)::int from stored_files where client_id = ${clientId}) as images,
                 (select count(*)::int from users where manages = ${clientId}) as admins`,
    );
    return row!;
  },

  /**
   * Ends every session of the client's own admins (provider admins keep theirs): an open admin page of
   * the deleted town gets a 401 on its next call instead of acting on a client that no longer exists.
   */
  async revokeAdminSessions(tx: Executor, clientId: number): Promise<void> {
    const admins = tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.manages, clientId), ne(users.roleId, 1)));
    await tx.delete(sessions).where(inArray(sessions.userId, admins));
  },

  /**
   * Deletes the client. The foreign keys remove its contacts, images, import runs and old city names,
   * and set its admins' `manages` to null; the accounts stay so they can be reassigned. Its rolls' rows
   * are not among them (migrations/0012): rollsRepository.deleteClientRolls removes those.
   */
  async delete(tx: Executor, id: number): Promise<boolean> {
    const rows = await tx.delete(clients).where(eq(clients.id, id)).returning({ id: clients.id });
    return rows.length > 0;
  },
};
