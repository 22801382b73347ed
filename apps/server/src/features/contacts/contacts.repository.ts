import { and, asc, eq } from 'drizzle-orm';
import type { Contact } from '@opp/contracts';
import type { Executor } from '../../db/database.ts';
import { contacts } from '../../db/schema.ts';

export type ContactRow = typeof contacts.$inferSelect;
export type ContactValues = Omit<typeof contacts.$inferInsert, 'id' | 'createdAt'>;

export function toContactDto(c: ContactRow): Contact {
  return {
    ContactID: c.id,
    ClientID: c.clientId,
    Title: c.title,
    ContactUrl: c.contactUrl,
    HoursOfOperation: c.hoursOfOperation,
    Telephone: c.telephone,
    ContactEmail: c.contactEmail,
    FreeFormMessage: c.freeFormMessage,
  };
}

export const contactsRepository = {
  /** A client's contacts in the order they were added (the public carousel's order). */
  async listByClient(db: Executor, clientId: number): Promise<ContactRow[]> {
    return db.select().from(contacts).where(eq(contacts.clientId, clientId)).orderBy(asc(contacts.id));
  },

  async findById(db: Executor, id: number): Promise<ContactRow | null> {
    const [row] = await db.select().from(contacts).where(eq(contacts.id, id)).limit(1);
    return row ?? null;
  },

  async insert(db: Executor, values: ContactValues): Promise<ContactRow> {
    const [row] = await db.insert(contacts).values(values).returning();
    return row!;
  },

  /** Scoped by client too, so a contact can never be rewritten through another client's id. */
  async update(
    db: Executor,
    clientId: number,
    id: number,
    values: Omit<ContactValues, 'clientId'>,
  ): Promise<ContactRow | null> {
    const [row] = await db
      .update(contacts)
      .set(values)
      .where(and(eq(contacts.id, id), eq(contacts.clientId, clientId)))
      .returning();
    return row ?? null;
  },

  async delete(db: Executor, clientId: number, id: number): Promise<boolean> {
    const rows = await db
      .delete(contacts)
      .where(and(eq(contacts.id, id), eq(contacts.clientId, clientId)))
      .returning({ id: contacts.id });
    return rows.length > 0;
  },
};
