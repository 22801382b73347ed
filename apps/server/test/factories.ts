import { eq } from 'drizzle-orm';
import type { PropertyRecordInput } from '@opp/contracts';
import type { Db } from '../src/db/database.ts';
import { clients } from '../src/db/schema.ts';
import { importRoll } from '../src/features/imports/import.service.ts';

let seq = 0;

export async function buildClient(
  db: Db,
  overrides: Partial<typeof clients.$inferInsert> = {},
): Promise<typeof clients.$inferSelect> {
  seq++;
  const [row] = await db
    .insert(clients)
    .values({
      city: `Testville ${seq}`,
      stateProvince: 'Maine',
      country: 'United States',
      description: `Town of Testville ${seq}`,
      isActive: true,
      isProduction: true,
      allowsImage: true,
      pictureLevel: 'Per Property',
      allowPaymentLink: false,
      paymentLink: '',
      parcelCount: 0,
      ...overrides,
    })
    .returning();
  return row!;
}

/** Publishes records as the client's roll through the real import pipeline. */
export async function publishRoll(db: Db, clientId: number, records: PropertyRecordInput[]) {
  const outcome = await importRoll(
    db,
    { clientId, userId: null, actor: 'test', fileName: 'test.jsonl' },
    async function* () {
      let line = 0;
      for (const value of records) yield { line: ++line, value };
    },
  );
  if (!outcome.ok) throw new Error(`test roll rejected:\n${outcome.errors.join('\n')}`);
  const [client] = await db.select().from(clients).where(eq(clients.id, clientId));
  return { outcome, client: client! };
}
