import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { PropertyRecordInput } from '@opp/contracts';
import type { Db } from '../src/db/database.ts';
import { clients } from '../src/db/schema.ts';
import { importRoll } from '../src/features/rolls/import.service.ts';
import { rollsRepository } from '../src/features/rolls/rolls.repository.ts';
import { hashPassword } from '../src/features/auth/password.ts';
import { usersRepository } from '../src/features/users/users.repository.ts';

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

/**
 * What a failed import leaves until the next sweep (as when the process died right after marking the
 * run failed): the run, and its roll's empty tables.
 */
export async function abandonedRoll(db: Db, clientId: number) {
  const run = await rollsRepository.createRun(db, {
    clientId,
    userId: null,
    actor: 'test',
    fileName: 'abandoned.jsonl',
  });
  await rollsRepository.createRollTable(db, run.id);
  await rollsRepository.fail(db, run.id, 'Import failed: test', [], 0);
  return run;
}

let userSeq = 0;

/**
 * An account. Without `password` it gets a hash no password matches (cheap: no scrypt); pass one when
 * the test signs in through POST /api/login.
 */
export async function buildUser(
  db: Db,
  options: { roleId: 1 | 2 | 3 | 4; manages?: number | null; password?: string; username?: string },
) {
  userSeq++;
  const username = options.username ?? `user${userSeq}r${options.roleId}`;
  return usersRepository.insert(db, {
    username,
    email: `${username}@example.test`,
    roleId: options.roleId,
    manages: options.manages ?? null,
    passwordHash: options.password ? await hashPassword(options.password) : 'scrypt$unusable',
  });
}

/** The Authorization header of a fresh session for this user (as if they had signed in). */
export async function authHeader(app: FastifyInstance, userId: number) {
  const token = await app.sessions.create(userId, { ip: null, userAgent: null });
  return { authorization: `Bearer ${token}` };
}
