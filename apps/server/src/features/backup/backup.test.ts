import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { runCli } from '../../cli/cli.ts';
import type { CliIo } from '../../cli/io.ts';
import { loadConfig } from '../../config.ts';
import { queryRows } from '../../db/database.ts';
import { startServer, type RunningServer } from '../../server.ts';
import { buildClient, buildUser, publishRoll } from '../../../test/factories.ts';
import { TEST_TOWN } from '../../../test/test-town.ts';
import { multipart, tinyPng } from '../../../test/security/world.ts';
import { LOCAL_TOKEN_HEADER, readLocalAdmin } from './backup.service.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-backup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const envFor = (dataDir: string) => ({
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  PORTAL_DEMO: '0',
  LOG_LEVEL: 'silent',
  WEB_DIST: '',
});

function io(env: NodeJS.ProcessEnv): CliIo & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  return { env, stdin: new PassThrough(), stdout, stderr, out: () => out, err: () => err };
}

const PASSWORD = 'backup test password';

describe('portal backup and restore (embedded database)', () => {
  it('round-trips a populated portal: snapshot while serving and writing, restore elsewhere, all there', async () => {
    const dirA = path.join(tmp, 'a');
    const dirB = path.join(tmp, 'b');
    const file = path.join(tmp, 'portal.tar.gz');
    let a: RunningServer | null = await startServer(loadConfig(envFor(dirA)));
    let b: RunningServer | null = null;
    try {
      const db = a.database.db;
      const town = await buildClient(db, { city: 'Backupville' });
      await publishRoll(db, town.id, TEST_TOWN);
      const admin = await buildUser(db, { roleId: 1, username: 'backupadmin', password: PASSWORD });
      const login = await a.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { Identity: admin.username, Password: PASSWORD },
      });
      const headers = { authorization: `Bearer ${login.json().accessToken}` };
      const png = await tinyPng(20, 10);
      const up = multipart([
        { name: 'ClientID', value: String(town.id) },
        { name: 'file', filename: 'b.png', type: 'image/png', data: png },
      ]);
      const banner = await a.app.inject({
        method: 'POST',
        url: '/api/image',
        headers: { ...headers, ...up.headers },
        payload: up.payload,
      });
      expect(banner.statusCode).toBe(201);
      const bannerName = banner.json().BannerImage as string;
      const bannerBytes = (await a.app.inject({ url: `/api/files/image/${bannerName}` })).rawPayload;

      // Writers keep going during the snapshot; each transaction adds a pair of contacts, so a
      // snapshot taken mid-transaction would hold an odd number.
      let writing = true;
      let pairs = 0;
      const writer = (async () => {
        while (writing) {
          await db.transaction(async (tx) => {
            await tx.execute(sql`insert into contacts (client_id, title) values (${town.id}, 'pair 1')`);
            await new Promise((r) => setTimeout(r, 2));
            await tx.execute(sql`insert into contacts (client_id, title) values (${town.id}, 'pair 2')`);
          });
          pairs++;
        }
      })();
      await new Promise((r) => setTimeout(r, 100));

      const backup = io(envFor(dirA));
      expect(await runCli(['backup', file], backup), backup.err()).toBe(0);
      expect(backup.out()).toMatch(/written to .*portal\.tar\.gz .*taken by the running portal/);
      writing = false;
      await writer;
      expect(pairs).toBeGreaterThan(0);
      expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      await a.close();
      a = null;

      const restore = io(envFor(dirB));
      expect(await runCli(['restore', file], restore), restore.err()).toBe(0);
      expect(restore.out()).toMatch(/Restored .* \(1 clients\)/);

      b = await startServer(loadConfig(envFor(dirB)));
      const rdb = b.database.db;
      const client = await b.app.inject({ url: `/api/client/${town.id}` });
      expect(client.json()).toMatchObject({ City: 'Backupville', BannerImage: bannerName });
      const search = await b.app.inject({
        method: 'POST',
        url: `/api/propertysearch/${town.id}`,
        payload: {},
      });
      expect(search.json().TotalRecords).toBe(TEST_TOWN.length);
      const again = await b.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { Identity: admin.username, Password: PASSWORD },
      });
      expect(again.statusCode).toBe(200);
      expect(
        (await b.app.inject({ url: `/api/files/image/${bannerName}` })).rawPayload.equals(bannerBytes),
      ).toBe(true);
      const contacts = await queryRows<{ n: number }>(
        rdb,
        sql`select count(*)::int as n from contacts where client_id = ${town.id}`,
      );
      expect(contacts[0]!.n % 2).toBe(0);
      const audit = await queryRows<{ action: string }>(rdb, sql`select action from audit_log order by id`);
      expect(audit.map((r) => r.action)).toContain('banner.create');
      expect(audit.at(-1)!.action).toBe('database.restore');

      // Restoring over a running portal is refused, and changes nothing.
      const refused = io(envFor(dirB));
      expect(await runCli(['restore', file], refused)).toBe(1);
      expect(refused.err()).toMatch(/is running .*stop it/);
    } finally {
      await a?.close();
      await b?.close();
    }

    // With the portal stopped, the command opens the folder itself.
    const offline = io(envFor(dirB));
    expect(await runCli(['backup', path.join(tmp, 'offline.tar.gz')], offline), offline.err()).toBe(0);
    expect(offline.out()).toMatch(/not running/);
  }, 180_000);

  it('serves snapshots only to a local caller holding the token; to anyone else the route does not exist', async () => {
    const dir = path.join(tmp, 'c');
    const server = await startServer(loadConfig(envFor(dir)));
    try {
      const local = readLocalAdmin(dir)!;
      expect(local.pid).toBe(process.pid);
      expect(fs.statSync(path.join(dir, 'portal.local-admin.json')).mode & 0o077).toBe(0);
      const post = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
        server.app.inject({ method: 'POST', url: '/api/internal/backup', headers, remoteAddress });
      expect((await post({})).statusCode).toBe(404);
      expect((await post({ [LOCAL_TOKEN_HEADER]: `${local.token.slice(0, -1)}x` })).statusCode).toBe(404);
      const remote = await post({ [LOCAL_TOKEN_HEADER]: local.token }, '203.0.113.9');
      expect(remote.statusCode).toBe(404);
      expect(remote.json()).toMatchObject({ code: 'not_found', message: 'No such API endpoint' });
      const ok = await post({ [LOCAL_TOKEN_HEADER]: local.token });
      expect(ok.statusCode).toBe(200);
      expect(ok.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    } finally {
      await server.close();
    }
    // The token file goes with the server.
    expect(readLocalAdmin(dir)).toBeNull();
    expect(fs.existsSync(path.join(dir, 'portal.local-admin.json'))).toBe(false);
  }, 120_000);

  it('points PostgreSQL installations at pg_dump and pg_restore', async () => {
    const env = { ...envFor(path.join(tmp, 'd')), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/x' };
    const b = io(env);
    expect(await runCli(['backup', path.join(tmp, 'x.tar.gz')], b)).toBe(1);
    expect(b.err()).toMatch(/pg_dump/);
    const r = io(env);
    expect(await runCli(['restore', path.join(tmp, 'x.tar.gz')], r)).toBe(1);
    expect(r.err()).toMatch(/pg_restore/);
  });
});
