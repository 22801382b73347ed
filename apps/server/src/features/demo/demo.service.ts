import { randomBytes } from 'node:crypto';
import { DEFAULT_TITLE, Role, type RoleId } from '@opp/contracts';
import type { Db } from '../../db/database.ts';
import { hashPassword } from '../auth/password.ts';
import type { ClientRow } from '../clients/clients.repository.ts';
import { clientsService } from '../clients/clients.service.ts';
import { contactsService } from '../contacts/contacts.service.ts';
import { storedFilesService } from '../files/files.service.ts';
import { importRoll } from '../rolls/import.service.ts';
import { rollsService } from '../rolls/rolls.service.ts';
import { createDemoParcelLayer } from '../parcels/demo-parcels.ts';
import { usersService } from '../users/users.service.ts';
import { demoBanner, demoHousePhotos, type DemoImage } from './demo-images.ts';
import { DEMO_TOWNS, demoRecords, demoTownSizes, type DemoTown } from './demo-records.ts';

/** The actor recorded on demo rolls; a town whose published roll came from anyone else is not demo data. */
export const DEMO_ACTOR = 'portal demo';
export const DEMO_STATE = 'Maine';
const DEMO_DESCRIPTION_SUFFIX = '(demo data)';
const PHOTOS_PER_TOWN = 8;

/** Which town gets what: one has a banner, contacts and its own Super Administrator; one a payment link. */
const BANNER_TOWN = 'Harrison';
const PAYMENT_TOWN = 'Bridgton';

export interface DemoLogin {
  username: string;
  password: string;
  roleId: RoleId;
  /** What the account is for, as the CLI prints it. */
  label: string;
  manages: number | null;
}

export interface DemoSummary {
  towns: Array<{ clientId: number; city: string; state: string; parcels: number }>;
  logins: DemoLogin[];
}

export interface DemoOptions {
  /** Total parcels across the demo towns (default about 6,800), split like the default sizes. */
  parcels?: number;
  /** Fixed passwords (tests, scripted setups); otherwise new random ones are made and returned. */
  passwords?: { provider?: string; superAdmin?: string };
  /** One line per step, for the CLI. */
  onStep?: (message: string) => void;
}

export class DemoConflictError extends Error {}

/** A password for a demo login: 16 characters, random (the demo may be reachable from a network). */
export const newDemoPassword = () => randomBytes(12).toString('base64url');

/**
 * Creates (or refreshes) the demo: three Maine towns of different sizes with synthetic rolls published
 * through the real import, photos, a banner, contacts and a payment link, plus a demo provider admin
 * and a demo Super Administrator whose passwords are returned. Running it again republishes the same
 * rolls and sets new passwords. A town of the same name that holds real data is never touched.
 * @throws DemoConflictError when a demo town name is taken by a client that is not demo data.
 */
export async function createDemo(db: Db, options: DemoOptions = {}): Promise<DemoSummary> {
  const step = options.onStep ?? (() => {});
  const sizes = demoTownSizes(options.parcels);
  const clients: ClientRow[] = [];
  for (const town of DEMO_TOWNS) clients.push(await claimClient(db, town));

  const towns: DemoSummary['towns'] = [];
  for (const [i, town] of DEMO_TOWNS.entries()) {
    let client = clients[i]!;
    const prefix = `demo-${town.city.toLowerCase()}`;
    const photos = await storeImages(
      db,
      client.id,
      'property',
      await demoHousePhotos(prefix, PHOTOS_PER_TOWN),
    );
    if (town.city === BANNER_TOWN) {
      const [banner] = await storeImages(db, client.id, 'banner', [
        await demoBanner(prefix, `${DEFAULT_TITLE} ${town.city}`),
      ]);
      client = (await clientsService.setBanner(db, client.id, banner!)) ?? client;
      await addContacts(db, client.id, town);
    }
    const parcels = sizes[i]!;
    const outcome = await importRoll(
      db,
      { clientId: client.id, userId: null, actor: DEMO_ACTOR, fileName: `${prefix}.jsonl` },
      async function* () {
        let line = 0;
        for (const value of demoRecords(town, { parcels, images: photos })) yield { line: ++line, value };
      },
    );
    // The generator and the schema live in one repository; a rejection is a bug, not bad input.
    if (!outcome.ok)
      throw new Error(`demo roll for ${town.city} rejected: ${outcome.errors.slice(0, 3).join('; ')}`);
    // A map for the town (issue 40): synthetic lots drawn for the roll just published.
    await createDemoParcelLayer(db, client.id, town, town.city);
    step(`${town.city}, ${DEMO_STATE}: ${outcome.total.toLocaleString('en-US')} parcels`);
    towns.push({ clientId: client.id, city: town.city, state: DEMO_STATE, parcels: outcome.total });
  }

  const bannerTown = towns.find((t) => t.city === BANNER_TOWN)!;
  const logins: DemoLogin[] = [
    await upsertLogin(db, {
      username: 'demo-provider',
      email: 'demo-provider@example.com',
      roleId: Role.Provider,
      manages: null,
      label: 'provider administrator (all towns, /admin)',
      password: options.passwords?.provider ?? newDemoPassword(),
    }),
    await upsertLogin(db, {
      username: `demo-${BANNER_TOWN.toLowerCase()}-admin`,
      email: `demo-${BANNER_TOWN.toLowerCase()}-admin@example.com`,
      roleId: Role.SuperAdmin,
      manages: bannerTown.clientId,
      label: `Super Administrator of ${BANNER_TOWN} (/${DEMO_STATE}/${BANNER_TOWN}/admin)`,
      password: options.passwords?.superAdmin ?? newDemoPassword(),
    }),
  ];
  return { towns, logins };
}

/** The town's client: created, or reused when it is demo data already. */
async function claimClient(db: Db, town: DemoTown): Promise<ClientRow> {
  const existing = await clientsService.findByStateCity(db, DEMO_STATE, town.city);
  const payment = town.city === PAYMENT_TOWN;
  if (!existing) {
    return clientsService.insert(db, {
      city: town.city,
      stateProvince: DEMO_STATE,
      country: 'United States',
      description: `${DEFAULT_TITLE} ${town.city} ${DEMO_DESCRIPTION_SUFFIX}`,
      bannerImage: null,
      isActive: true,
      // Test towns stay out of the public town pickers; the demo should be found there.
      isProduction: true,
      allowsImage: true,
      pictureLevel: 'Per Property',
      allowPaymentLink: payment,
      paymentLink: payment ? `pay.example.com/demo/${town.city.toLowerCase()}?account=` : '',
      parcelCount: 0,
    });
  }
  const roll = existing.activeRollId ? await rollsService.findRun(db, existing.activeRollId) : null;
  const isDemo = roll ? roll.actor === DEMO_ACTOR : existing.description.endsWith(DEMO_DESCRIPTION_SUFFIX);
  if (!isDemo)
    throw new DemoConflictError(
      `${town.city}, ${DEMO_STATE} already exists and holds data that is not demo data; the demo leaves it alone. ` +
        'Use an empty database for the demo.',
    );
  return existing;
}

async function storeImages(
  db: Db,
  clientId: number,
  kind: 'property' | 'banner',
  images: DemoImage[],
): Promise<string[]> {
  for (const img of images) {
    if (await storedFilesService.exists(db, img.name)) continue;
    await storedFilesService.insert(db, {
      name: img.name,
      clientId,
      kind,
      contentType: 'image/jpeg',
      byteSize: img.bytes.length,
      width: img.width,
      height: img.height,
      sha256: img.sha256,
      bytes: img.bytes,
    });
  }
  return images.map((i) => i.name);
}

async function addContacts(db: Db, clientId: number, town: DemoTown) {
  if (await contactsService.hasAny(db, clientId)) return;
  const site = `https://www.example.com/demo/${town.city.toLowerCase()}`;
  const contacts = [
    {
      title: 'Town Clerk (demo)',
      contactUrl: site,
      hoursOfOperation: 'Mon–Thu 8:00–4:30, Fri 8:00–12:00',
      telephone: '(207) 555-0142',
      contactEmail: `clerk@${town.city.toLowerCase()}.example.com`,
      freeFormMessage: 'Demo data: a fictional contact for trying out the portal.',
    },
    {
      title: 'Assessing Office (demo)',
      contactUrl: `${site}/assessing`,
      hoursOfOperation: 'Tue and Thu 9:00–3:00',
      telephone: '(207) 555-0143',
      contactEmail: `assessor@${town.city.toLowerCase()}.example.com`,
      freeFormMessage: 'Demo data. Questions about a valuation go to the assessor, not the clerk.',
    },
    {
      title: 'Tax Collector (demo)',
      contactUrl: '',
      hoursOfOperation: 'Mon–Fri 8:00–4:30',
      telephone: '(207) 555-0144',
      contactEmail: '',
      freeFormMessage: 'Demo data. Payments by check or at the counter.',
    },
  ];
  for (const c of contacts) await contactsService.insertSeeded(db, { clientId, ...c });
}

async function upsertLogin(
  db: Db,
  login: Omit<DemoLogin, 'roleId'> & { roleId: RoleId; email: string },
): Promise<DemoLogin> {
  const passwordHash = await hashPassword(login.password);
  const existing = await usersService.findByIdentity(db, login.username);
  if (existing && existing.email.toLowerCase() !== login.email)
    throw new DemoConflictError(
      `A user named ${login.username} exists and is not the demo account; not touching it.`,
    );
  await usersService.saveSeeded(db, existing?.id ?? null, {
    username: login.username,
    email: login.email,
    roleId: login.roleId,
    manages: login.manages,
    passwordHash,
  });
  return {
    username: login.username,
    password: login.password,
    roleId: login.roleId,
    label: login.label,
    manages: login.manages,
  };
}
