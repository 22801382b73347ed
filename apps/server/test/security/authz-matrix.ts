import { eq, sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/database.ts';
import { users } from '../../src/db/schema.ts';
import { twoFactorRepository } from '../../src/features/auth/two-factor.repository.ts';
import { generateSecret, totp } from '../../src/features/auth/two-factor.totp.ts';
import { buildClient, buildUser } from '../factories.ts';
import { ensureParcelLayer, lotRow, TEST_TOWN_LOTS } from '../parcel-layers.ts';
import { TEST_TOWN } from '../test-town.ts';
import {
  PASSWORD,
  ensureBanner,
  multipart,
  newContact,
  waitForImports,
  type Caller,
  type World,
} from './world.ts';

/*
 * The access-control matrix: for every /api route, the status each caller must get when acting on town
 * A's resources. The test fails for a route missing here (so a new route cannot ship unchecked) and for
 * an entry whose route no longer exists.
 *
 * Policies (spec §6, packages/contracts/src/policies.ts):
 *   PUBLIC         anyone
 *   SIGNED_IN      any signed-in account (their own two-factor settings)
 *   TOWN_ADMIN     RoleID 2 or 3 managing the town, or a provider admin
 *   ADMIN_MANAGER  the town's Super Administrator, or a provider admin
 *   PROVIDER       provider admins only
 * Tenant isolation: town B's Super Administrator never gets town A's data or changes it.
 */

export type Expectation = Record<Caller, number | readonly number[]>;

export interface MatrixRequest {
  url: string;
  payload?: unknown;
  /** Replaces the caller's headers (e.g. a throwaway session for logout), merged with content type. */
  headers?: Record<string, string>;
  /** Added to the caller's headers. */
  extraHeaders?: Record<string, string>;
}

export interface MatrixEntry {
  expect: Expectation;
  /** One request against town A, built afresh for every caller (a delete needs something to delete). */
  request: (w: World, caller: Caller) => MatrixRequest | Promise<MatrixRequest>;
  /** Runs after each call, before the next one (a roll upload goes on in the background). */
  settle?: (w: World) => Promise<void>;
}

const all = (status: number | readonly number[]): Expectation => ({
  anonymous: status,
  role4A: status,
  siteA: status,
  superA: status,
  superB: status,
  provider: status,
});
const PUBLIC = (ok = 200) => all(ok);
const SIGNED_IN = (ok = 200): Expectation => ({ ...all(ok), anonymous: 401 });
const TOWN_ADMIN = (ok = 200): Expectation => ({
  anonymous: 401,
  role4A: 403,
  siteA: ok,
  superA: ok,
  superB: 403,
  provider: ok,
});
const ADMIN_MANAGER = (ok = 200): Expectation => ({ ...TOWN_ADMIN(ok), siteA: 403 });
const PROVIDER = (ok = 200): Expectation => ({ ...ADMIN_MANAGER(ok), superA: 403 });

const userIdOf = (w: World, caller: Caller) => (caller === 'anonymous' ? null : w.userIds[caller]);

async function imageUpload(w: World, url: string): Promise<MatrixRequest> {
  const body = multipart([
    { name: 'ClientID', value: String(w.townA.id) },
    { name: 'fileType', value: 'png' },
    { name: 'file', filename: 'banner.png', type: 'image/png', data: w.png },
  ]);
  return { url, payload: body.payload, extraHeaders: body.headers };
}

const rollJsonl = Buffer.from(TEST_TOWN.map((r) => JSON.stringify(r)).join('\n') + '\n');

export const AUTHZ_MATRIX: Record<string, MatrixEntry> = {
  // ---- public reads -------------------------------------------------------------------------------
  'GET /api/states': { expect: PUBLIC(), request: () => ({ url: '/api/states' }) },
  'GET /api/:state/cities': { expect: PUBLIC(), request: (w) => ({ url: `/api/${w.townA.state}/cities` }) },
  'GET /api/client/:state/:city': {
    expect: PUBLIC(),
    request: (w) => ({ url: `/api/client/${w.townA.state}/${encodeURIComponent(w.townA.city)}` }),
  },
  'GET /api/client/:id': { expect: PUBLIC(), request: (w) => ({ url: `/api/client/${w.townA.id}` }) },
  'GET /api/config': { expect: PUBLIC(), request: () => ({ url: '/api/config' }) },
  'GET /api/contacts/:clientId': {
    expect: PUBLIC(),
    request: (w) => ({ url: `/api/contacts/${w.townA.id}` }),
  },
  'GET /api/files/image/:file': {
    expect: PUBLIC(),
    request: async (w) => ({ url: `/api/files/image/${await ensureBanner(w, w.townA.id)}` }),
  },
  'GET /api/fullproperty/:account': {
    expect: PUBLIC(),
    request: (w) => ({
      url: `/api/fullproperty/1?city=${encodeURIComponent(w.townA.city)}&state=${w.townA.state}`,
    }),
  },
  'GET /api/landbuilding/:clientId': {
    expect: PUBLIC(),
    request: (w) => ({ url: `/api/landbuilding/${w.townA.id}` }),
  },
  'GET /api/suggest/:clientId': {
    expect: PUBLIC(),
    request: (w) => ({ url: `/api/suggest/${w.townA.id}?q=smi` }),
  },
  'POST /api/propertysearch/:clientId': {
    expect: PUBLIC(),
    request: (w) => ({ url: `/api/propertysearch/${w.townA.id}?query=smith&page=1`, payload: {} }),
  },
  'POST /api/search/:id': {
    expect: PUBLIC(),
    request: (w) => ({ url: `/api/search/${w.townA.id}?query=main`, payload: { filters: {} } }),
  },
  'GET /api/propertysearch/:clientId/export.csv': {
    expect: PUBLIC(),
    request: (w) => ({ url: `/api/propertysearch/${w.townA.id}/export.csv?query=main` }),
  },
  // Parcel map and abutters (issue 40): town A gets a layer for its roll on first use.
  'GET /api/propertysearch/:clientId/points': {
    expect: PUBLIC(),
    request: async (w) => {
      await ensureParcelLayer(w.db, w.townA.id);
      return { url: `/api/propertysearch/${w.townA.id}/points?query=main` };
    },
  },
  'GET /api/parcels/:clientId/:account': {
    expect: PUBLIC(),
    request: async (w) => {
      await ensureParcelLayer(w.db, w.townA.id);
      return { url: `/api/parcels/${w.townA.id}/1` };
    },
  },
  'GET /api/parcels/:clientId': {
    expect: PUBLIC(),
    request: async (w) => {
      await ensureParcelLayer(w.db, w.townA.id);
      return { url: `/api/parcels/${w.townA.id}?bbox=-69.78,44.30,-69.76,44.32` };
    },
  },
  'GET /api/abutters/:clientId/:account': {
    expect: PUBLIC(),
    request: async (w) => {
      await ensureParcelLayer(w.db, w.townA.id);
      return { url: `/api/abutters/${w.townA.id}/1?distance=300` };
    },
  },
  'GET /api/abutters/:clientId/:account/abutters.csv': {
    expect: PUBLIC(),
    request: async (w) => {
      await ensureParcelLayer(w.db, w.townA.id);
      return { url: `/api/abutters/${w.townA.id}/1/abutters.csv?distance=300` };
    },
  },
  'GET /api/abutters/:clientId/:account/abutters.pdf': {
    expect: PUBLIC(),
    request: async (w) => {
      await ensureParcelLayer(w.db, w.townA.id);
      return { url: `/api/abutters/${w.townA.id}/1/abutters.pdf?distance=300&dedupe=1` };
    },
  },
  // Comparable sales (issue 49), on the same layer.
  'GET /api/comparables/:clientId/:account': {
    expect: PUBLIC(),
    request: async (w) => {
      await ensureParcelLayer(w.db, w.townA.id);
      return { url: `/api/comparables/${w.townA.id}/1?distance=1&years=5&size=any` };
    },
  },
  'GET /api/comparables/:clientId/:account/comparables.csv': {
    expect: PUBLIC(),
    request: async (w) => {
      await ensureParcelLayer(w.db, w.townA.id);
      return { url: `/api/comparables/${w.townA.id}/1/comparables.csv?distance=1` };
    },
  },
  'GET /api/parcel-layers/:clientId': {
    expect: PROVIDER(),
    request: (w) => ({ url: `/api/parcel-layers/${w.townA.id}` }),
  },
  'POST /api/parcels/:clientId': {
    expect: PROVIDER(),
    request: (w) => {
      const body = multipart([
        {
          name: 'file',
          filename: 'lots.geojson',
          type: 'application/geo+json',
          data: Buffer.from(JSON.stringify(lotRow(TEST_TOWN_LOTS))),
        },
      ]);
      return {
        url: `/api/parcels/${w.townA.id}?key=MapLot&dryRun=1`,
        payload: body.payload,
        extraHeaders: body.headers,
      };
    },
  },
  'GET /api/openapi.json': { expect: PUBLIC(), request: () => ({ url: '/api/openapi.json' }) },
  'GET /api/docs': { expect: PUBLIC(), request: () => ({ url: '/api/docs' }) },
  'GET /api/docs/json': { expect: PUBLIC(), request: () => ({ url: '/api/docs/json' }) },
  'GET /api/docs/yaml': { expect: PUBLIC(), request: () => ({ url: '/api/docs/yaml' }) },
  'GET /api/docs/static/*': { expect: PUBLIC(), request: () => ({ url: '/api/docs/static/swagger-ui.css' }) },
  'GET /api/docs/static/index.html': {
    expect: PUBLIC(302),
    request: () => ({ url: '/api/docs/static/index.html' }),
  },
  'GET /api/docs/static/swagger-initializer.js': {
    expect: PUBLIC(),
    request: () => ({ url: '/api/docs/static/swagger-initializer.js' }),
  },

  // ---- sign-in ------------------------------------------------------------------------------------
  'POST /api/login': {
    expect: PUBLIC(),
    request: (w) => ({ url: '/api/login', payload: { Identity: w.usernames.siteA, Password: PASSWORD } }),
  },
  'POST /api/logout': {
    expect: PUBLIC(),
    // A throwaway session: logging the caller's own table session out would end their later calls.
    request: async (w, caller): Promise<MatrixRequest> => {
      const id = userIdOf(w, caller);
      if (id === null) return { url: '/api/logout', headers: {} };
      const token = await w.app.sessions.create(id, { ip: null, userAgent: null });
      return { url: '/api/logout', headers: { authorization: `Bearer ${token}` } };
    },
  },
  'GET /api/user/:id': { expect: PROVIDER(), request: (w) => ({ url: `/api/user/${w.targetUserA}` }) },
  'GET /api/two-factor': { expect: SIGNED_IN(), request: () => ({ url: '/api/two-factor' }) },
  'POST /api/two-factor/start': {
    expect: SIGNED_IN(),
    request: async (w, caller) => {
      const id = userIdOf(w, caller);
      if (id !== null) await twoFactorRepository.disable(w.db, id);
      return { url: '/api/two-factor/start' };
    },
  },
  'POST /api/two-factor/confirm': {
    expect: SIGNED_IN(),
    request: async (w, caller) => {
      const id = userIdOf(w, caller);
      const secret = generateSecret();
      if (id !== null) {
        await twoFactorRepository.disable(w.db, id);
        await twoFactorRepository.setPendingSecret(w.db, id, secret);
      }
      return { url: '/api/two-factor/confirm', payload: { Code: totp(secret, Date.now()) } };
    },
  },
  'POST /api/two-factor/disable': {
    expect: SIGNED_IN(),
    request: async (w, caller) => {
      const id = userIdOf(w, caller);
      const secret = generateSecret();
      if (id !== null)
        await w.db
          .update(users)
          .set({ totpSecret: secret, totpEnabled: true, totpLastStep: null })
          .where(eq(users.id, id));
      return { url: '/api/two-factor/disable', payload: { Code: totp(secret, Date.now()) } };
    },
  },
  'POST /api/two-factor/recovery-codes': {
    expect: SIGNED_IN(),
    request: async (w, caller) => {
      // Only this caller has it on (a later row signing in with the password alone sees the rest off).
      for (const other of Object.values(w.userIds)) await twoFactorRepository.disable(w.db, other);
      const id = userIdOf(w, caller);
      const secret = generateSecret();
      if (id !== null)
        await w.db
          .update(users)
          .set({ totpSecret: secret, totpEnabled: true, totpLastStep: null })
          .where(eq(users.id, id));
      return { url: '/api/two-factor/recovery-codes', payload: { Code: totp(secret, Date.now()) } };
    },
  },

  // ---- the town's admin area ----------------------------------------------------------------------
  'PATCH /api/client/:clientId': {
    expect: TOWN_ADMIN(),
    request: (w) => ({
      url: `/api/client/${w.townA.id}`,
      payload: { Description: `Town of ${w.townA.city}` },
    }),
  },
  'POST /api/contact': {
    expect: TOWN_ADMIN(201),
    request: (w) => ({
      url: '/api/contact',
      payload: { ClientID: w.townA.id, Title: `Treasurer ${w.seq()}`, ContactEmail: 'treasurer@example.gov' },
    }),
  },
  'PUT /api/contact/:id': {
    expect: TOWN_ADMIN(),
    request: (w) => ({
      url: `/api/contact/${w.contactA}`,
      payload: { ClientID: w.townA.id, Title: `Town Clerk ${w.seq()}` },
    }),
  },
  'DELETE /api/contact/:id': {
    expect: TOWN_ADMIN(),
    request: async (w) => ({ url: `/api/contact/${await newContact(w, w.townA.id)}` }),
  },
  'POST /api/image': { expect: TOWN_ADMIN(201), request: (w) => imageUpload(w, '/api/image') },
  'PATCH /api/image/:bannerFile': {
    expect: TOWN_ADMIN(),
    request: async (w) => imageUpload(w, `/api/image/${await ensureBanner(w, w.townA.id)}`),
  },
  'DELETE /api/image/:bannerFile': {
    expect: TOWN_ADMIN(),
    request: async (w) => ({ url: `/api/image/${await ensureBanner(w, w.townA.id)}` }),
  },
  'GET /api/users/:clientId': {
    expect: ADMIN_MANAGER(),
    request: (w) => ({ url: `/api/users/${w.townA.id}` }),
  },
  'POST /api/user': {
    expect: ADMIN_MANAGER(201),
    request: (w) => {
      const n = w.seq();
      return {
        url: '/api/user',
        payload: {
          Username: `newadmin${n}`,
          Email: `newadmin${n}@example.test`,
          RoleID: 3,
          Manages: w.townA.id,
          Password: PASSWORD,
        },
      };
    },
  },
  'PUT /api/user/:id': {
    expect: ADMIN_MANAGER(),
    request: async (w) => {
      const [u] = await w.db.select().from(users).where(eq(users.id, w.targetUserA));
      return { url: `/api/user/${w.targetUserA}`, payload: { Username: u!.username, Email: u!.email } };
    },
  },
  'DELETE /api/user/:id': {
    expect: ADMIN_MANAGER(),
    request: async (w) => {
      const u = await buildUser(w.db, { roleId: 3, manages: w.townA.id, username: `doomed${w.seq()}` });
      return { url: `/api/user/${u.id}` };
    },
  },
  'GET /api/audit': {
    // A Super Administrator reads their own town's log; town B's asking for town A's is refused.
    expect: ADMIN_MANAGER(),
    request: (w) => ({ url: `/api/audit?ClientID=${w.townA.id}` }),
  },

  // ---- provider console ---------------------------------------------------------------------------
  'GET /api/clients': { expect: PROVIDER(), request: () => ({ url: '/api/clients' }) },
  'GET /api/users/role/:roleId': { expect: PROVIDER(), request: () => ({ url: '/api/users/role/1' }) },
  'POST /api/client': {
    expect: PROVIDER(201),
    request: (w) => ({
      url: '/api/client',
      payload: { City: `Charlie ${w.seq()}`, Country: 'United States', StateProvince: 'Maine' },
    }),
  },
  'DELETE /api/client/:id': {
    expect: PROVIDER(),
    request: async (w) => {
      const c = await buildClient(w.db, { city: `Doomed ${w.seq()}` });
      return { url: `/api/client/${c.id}` };
    },
  },
  'GET /api/roll-formats': { expect: PROVIDER(), request: () => ({ url: '/api/roll-formats' }) },
  'POST /api/rolls/:clientId/preview': {
    expect: PROVIDER(),
    request: (w) => {
      const body = multipart([
        { name: 'file', filename: 'roll.jsonl', type: 'application/x-ndjson', data: rollJsonl },
      ]);
      return { url: `/api/rolls/${w.townA.id}/preview`, payload: body.payload, extraHeaders: body.headers };
    },
  },
  'GET /api/rolls/:clientId': { expect: PROVIDER(), request: (w) => ({ url: `/api/rolls/${w.townA.id}` }) },
  'GET /api/rolls/:clientId/runs/:runId': {
    expect: PROVIDER(),
    request: async (w) => {
      const rows = await queryRows<{ id: number }>(
        w.db,
        sql`select max(id) as id from import_runs where client_id = ${w.townA.id}`,
      );
      return { url: `/api/rolls/${w.townA.id}/runs/${rows[0]!.id}` };
    },
  },
  'POST /api/rolls/:clientId': {
    expect: PROVIDER(202),
    request: (w) => {
      const body = multipart([
        { name: 'file', filename: 'roll.jsonl', type: 'application/x-ndjson', data: rollJsonl },
      ]);
      return { url: `/api/rolls/${w.townA.id}`, payload: body.payload, extraHeaders: body.headers };
    },
    settle: (w) => waitForImports(w.db),
  },

  // ---- `portal backup` on the same machine only: to every API caller it does not exist ----------
  'POST /api/internal/backup': { expect: all(404), request: () => ({ url: '/api/internal/backup' }) },

  // ---- everything else under /api is a JSON 404 (QUERY, a body method, fails validation first) ----
  'ANY /api/*': { expect: all([400, 404]), request: () => ({ url: '/api/no/such/endpoint' }) },
};
