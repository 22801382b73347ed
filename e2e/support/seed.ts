import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { RoleId } from '@opp/contracts';
import type { Db } from '../../apps/server/src/db/database.ts';
import { contacts, storedFiles } from '../../apps/server/src/db/schema.ts';
import { hashPassword } from '../../apps/server/src/features/auth/password.ts';
import { usersRepository, type UserRow } from '../../apps/server/src/features/users/users.repository.ts';

/*
 * Seeding helpers for browser tests. Everything goes through the server's own modules, so the data is
 * exactly what the import pipeline and the repositories would have written.
 */

export { buildClient, publishRoll } from '../../apps/server/test/factories.ts';

export interface SeedUser {
  username: string;
  password: string;
  roleId: RoleId;
  manages?: number | null;
  email?: string;
}

/** A user who can log in with `username` / `password`. */
export async function createUser(db: Db, u: SeedUser): Promise<UserRow> {
  return usersRepository.insert(db, {
    username: u.username,
    email: u.email ?? `${u.username.toLowerCase()}@example.test`,
    roleId: u.roleId,
    manages: u.manages ?? null,
    passwordHash: await hashPassword(u.password),
  });
}

export interface SeedContact {
  Title: string;
  ContactUrl?: string;
  HoursOfOperation?: string;
  Telephone?: string;
  ContactEmail?: string;
  FreeFormMessage?: string;
}

/** Public contacts for a client, in the order given. */
export async function createContacts(db: Db, clientId: number, list: SeedContact[]): Promise<void> {
  for (const c of list) {
    await db.insert(contacts).values({
      clientId,
      title: c.Title,
      contactUrl: c.ContactUrl ?? '',
      hoursOfOperation: c.HoursOfOperation ?? '',
      telephone: c.Telephone ?? '',
      contactEmail: c.ContactEmail ?? '',
      freeFormMessage: c.FreeFormMessage ?? '',
    });
  }
}

/**
 * Stores a solid-colour PNG as the server stores uploads and returns its public path
 * (/api/files/image/{name}). `kind: 'banner'` files can become a client's BannerImage.
 */
export async function createStoredImage(
  db: Db,
  options: {
    name: string;
    clientId: number;
    kind?: 'banner' | 'property';
    color?: string;
    width?: number;
    height?: number;
  },
): Promise<string> {
  const width = options.width ?? 640;
  const height = options.height ?? 480;
  const bytes = await sharp({
    create: { width, height, channels: 3, background: options.color ?? '#5a7fa6' },
  })
    .png()
    .toBuffer();
  await db.insert(storedFiles).values({
    name: options.name,
    clientId: options.clientId,
    kind: options.kind ?? 'property',
    contentType: 'image/png',
    byteSize: bytes.length,
    width,
    height,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes,
  });
  return `/api/files/image/${options.name}`;
}
