import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { AuditEntry } from '@opp/contracts';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig, testConfig } from '../config.ts';
import { openDatabase, queryRows } from '../db/database.ts';
import { createTestDatabase } from '../../test/helpers.ts';
import { cliHarness } from '../../test/cli-harness.ts';
import { prepareOnStart } from './demo-command.ts';
import type { CliIo } from './io.ts';

/** How the audit log names whoever ran the commands. */
const cliUser = `cli:${os.userInfo().username}`;

const cli = cliHarness('cli');
const { portal, withDb, file, dir } = cli;

async function rollOf(city: string) {
  return withDb(async ({ db }) => {
    const rows = await queryRows<{
      active_roll_id: number | null;
      parcel_count: number;
      accounts: string[] | null;
    }>(
      db,
      sql`select c.active_roll_id, c.parcel_count,
                 (select array_agg(p.account order by p.account) from properties p where p.roll_id = c.active_roll_id) as accounts
            from clients c where c.city = ${city}`,
    );
    return rows[0];
  });
}

async function canLogIn(Identity: string, Password: string): Promise<boolean> {
  return withDb(async (database) => {
    const app = await buildApp({ config: testConfig(), database });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/login', payload: { Identity, Password } });
      return res.statusCode === 200;
    } finally {
      await app.close();
    }
  });
}

describe('portal', () => {
  it('explains itself', async () => {
    const none = await portal([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Usage: portal <command>/);
    const help = await portal(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/import --state S --city C FILE/);
    const importHelp = await portal(['import', '--help']);
    expect(importHelp.code).toBe(0);
    expect(importHelp.stdout).toMatch(/^Usage: portal import --state STATE --city CITY FILE/);
    const unknown = await portal(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^portal: unknown command "frobnicate"/);
    const badOption = await portal(['import', '--sate', 'ME']);
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toMatch(/^portal import: Unknown option '--sate'/);
  });

  it('adds a client, and refuses the same town twice', async () => {
    const first = await portal(['client', 'add', '--state', 'me', '--city', 'Harrison']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^Created client \d+: Harrison, Maine\.$/m);
    const again = await portal(['client', 'add', '--state', 'Maine', '--city', 'harrison']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^portal client add: --city: The name harrison is not available in Maine/);
    const badState = await portal(['client', 'add', '--state', 'Atlantis', '--city', 'X']);
    expect(badState.code).toBe(1);
    expect(badState.stderr).toMatch(/--state: State\/Province must be one of the 50 US states/);
  }, 120_000);

  it('imports a good file, printing a summary, and publishes it', async () => {
    const roll = file(
      'harrison.jsonl',
      ['1', '2', '3']
        .map((a) => JSON.stringify({ Account: a, Owners: [{ OwnerName: `OWNER ${a}` }] }))
        .join('\n'),
    );
    const run = await portal(['import', '--state', 'ME', '--city', 'Harrison', roll]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Imported 3 records into Harrison, Maine in \d+\.\d s \([\d,]+ records\/s\); import run \d+\.$/m,
    );
    expect(await rollOf('Harrison')).toMatchObject({ parcel_count: 3, accounts: ['1', '2', '3'] });
    const runs = await withDb(({ db }) =>
      queryRows<{ actor: string; file_name: string; status: string }>(
        db,
        sql`select actor, file_name, status from import_runs order by id desc limit 1`,
      ),
    );
    expect(runs[0]).toMatchObject({ file_name: 'harrison.jsonl', status: 'succeeded' });
    expect(runs[0]!.actor).toMatch(/^portal import \(/);
  }, 120_000);

  it('rejects a bad file by line and column, exits 1 and leaves the roll as it was', async () => {
    const before = await rollOf('Harrison');
    const bad = file('bad.csv', 'Account,OwnerName,SalePrice\n7,A,100\n8,B,N/A\n9,,5\n');
    const run = await portal(['import', '--state', 'Maine', '--city', 'Harrison', bad]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([
      'line 3: SalePrice: expected a number, got "N/A"',
      'portal import: bad.csv was rejected: 1 problem in 3 records. Nothing was changed.',
      '',
    ]);
    expect(await rollOf('Harrison')).toEqual(before);
  }, 120_000);

  it('says clearly what is wrong before importing anything', async () => {
    const good = file('ok.csv', 'Account\n1\n');
    const noClient = await portal(['import', '--state', 'ME', '--city', 'Nowhere', good]);
    expect(noClient.code).toBe(1);
    expect(noClient.stderr).toMatch(
      /^portal import: there is no client "Nowhere, Maine"\. Create it first: portal client add/,
    );
    const missing = await portal([
      'import',
      '--state',
      'ME',
      '--city',
      'Harrison',
      path.join(dir, 'nope.jsonl'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^portal import: cannot read .*nope\.jsonl: ENOENT/);
    const format = await portal(['import', '--state', 'ME', '--city', 'Harrison', file('roll.xlsx', 'x')]);
    expect(format.code).toBe(1);
    expect(format.stderr).toMatch(/roll\.xlsx: a roll file must end in \.jsonl, \.ndjson or \.csv/);
    const state = await portal(['import', '--state', 'Mane', '--city', 'Harrison', good]);
    expect(state.code).toBe(1);
    expect(state.stderr).toMatch(/unknown state "Mane"/);
    const noFile = await portal(['import', '--state', 'ME', '--city', 'Harrison']);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/^portal import: FILE is required/);
  }, 120_000);

  it('adds users with the password from standard input, by the same rules as the admin screens', async () => {
    const provider = await portal(
      ['user', 'add', '--username', 'ann', '--email', 'ann@example.org', '--role', '1', '--password-stdin'],
      'a long enough password\n',
    );
    expect(provider.stderr).toBe('');
    expect(provider.code).toBe(0);
    expect(provider.stdout).toMatch(/^Created user "ann" \(UserId \d+, role 1 provider administrator\)\.$/m);
    expect(await canLogIn('ann', 'a long enough password')).toBe(true);

    const clientId = (
      await withDb(({ db }) =>
        queryRows<{ id: number }>(db, sql`select id from clients where city = 'Harrison'`),
      )
    )[0]!.id;
    const clerk = await portal(
      [
        'user',
        'add',
        '--username',
        'bob',
        '--email',
        'bob@example.org',
        '--role',
        '2',
        '--manages',
        String(clientId),
        '--password-stdin',
      ],
      'another long password',
    );
    expect(clerk.code).toBe(0);
    expect(clerk.stdout).toMatch(/role 2 Super Administrator, client \d+/);

    const cases: Array<[string[], string, number, RegExp]> = [
      [
        ['--username', 'cat', '--email', 'cat@example.org', '--role', '3'],
        'long password here',
        1,
        /--manages: a municipality admin must manage a client/,
      ],
      [
        ['--username', 'cat', '--email', 'cat@example.org', '--role', '3', '--manages', '999999'],
        'long password here',
        1,
        /--manages: no such municipality/,
      ],
      [
        ['--username', 'cat', '--email', 'cat@example.org', '--role', '1', '--manages', String(clientId)],
        'long password here',
        1,
        /--manages: a provider administrator manages every client/,
      ],
      [
        ['--username', 'cat', '--email', 'cat@example.org', '--role', '1'],
        'short',
        1,
        /password: Password must be at least 12 characters/,
      ],
      [
        ['--username', 'ANN', '--email', 'other@example.org', '--role', '1'],
        'long password here',
        1,
        /--username: That username or email address cannot be used/,
      ],
      [
        ['--username', 'cat', '--email', 'not-an-email', '--role', '1'],
        'long password here',
        1,
        /--email: Email Address is not a valid email/,
      ],
      [
        ['--username', 'cat', '--email', 'cat@example.org', '--role', '5'],
        'long password here',
        2,
        /--role must be 1, 2, 3 or 4/,
      ],
      [
        ['--username', 'cat', '--email', 'cat@example.org', '--role', '1'],
        'long password here',
        2,
        /--password-stdin/,
      ],
    ];
    for (const [args, password, code, message] of cases) {
      const withStdin =
        code === 2 && message.source.includes('password-stdin') ? args : [...args, '--password-stdin'];
      const run = await portal(['user', 'add', ...withStdin], password);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(code);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
    const users = await withDb(({ db }) =>
      queryRows<{ username: string }>(db, sql`select username from users order by id`),
    );
    expect(users.map((u) => u.username)).toEqual(['ann', 'bob']);
  }, 180_000);

  it('records every change it made in the audit log, under the command-line user and no address', async () => {
    // What a provider administrator sees in the audit log after the commands above.
    const { entries, runs } = await withDb(async (database) => {
      const app = await buildApp({ config: testConfig(), database });
      try {
        const login = await app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { Identity: 'ann', Password: 'a long enough password' },
        });
        const auth = { authorization: `Bearer ${login.json<{ accessToken: string }>().accessToken}` };
        const res = await app.inject({ url: `/api/audit?Actor=${cliUser}&pagesize=200`, headers: auth });
        expect(res.statusCode).toBe(200);
        const runs = await queryRows<{ id: number; file_name: string; status: string }>(
          database.db,
          sql`select id, file_name, status from import_runs order by id`,
        );
        return { entries: res.json<{ Entries: AuditEntry[] }>().Entries.reverse(), runs };
      } finally {
        await app.close();
      }
    });
    expect(
      entries.map((e) => ({ Action: e.Action, Ip: e.Ip, ActorUserId: e.ActorUserId, After: e.After })),
    ).toEqual([
      {
        Action: 'client.create',
        Ip: null,
        ActorUserId: null,
        After: expect.objectContaining({ City: 'Harrison' }),
      },
      { Action: 'roll.publish', Ip: null, ActorUserId: null, After: { FileName: 'harrison.jsonl' } },
      { Action: 'roll.publish', Ip: null, ActorUserId: null, After: { FileName: 'bad.csv' } },
      {
        Action: 'user.create',
        Ip: null,
        ActorUserId: null,
        After: expect.objectContaining({ Username: 'ann' }),
      },
      {
        Action: 'user.create',
        Ip: null,
        ActorUserId: null,
        After: expect.objectContaining({ Username: 'bob' }),
      },
    ]);
    expect(entries.every((e) => e.ActorUsername === cliUser)).toBe(true);
    // Each import's entry names its run, the one that succeeded and the one that was rejected.
    const publishes = entries.filter((e) => e.Action === 'roll.publish');
    expect(publishes.map((e) => [e.Entity, Number(e.EntityId)])).toEqual(
      runs.map((r) => ['import_run', r.id]),
    );
    expect(runs.map((r) => [r.file_name, r.status])).toEqual([
      ['harrison.jsonl', 'succeeded'],
      ['bad.csv', 'failed'],
    ]);
    expect(new Set(entries.filter((e) => e.Action !== 'user.create').map((e) => e.ClientID)).size).toBe(1);
  }, 120_000);

  it('turns off two-factor sign-in for an admin who lost it, ends their sessions, and says so', async () => {
    const counts = () =>
      withDb(async ({ db }) => {
        const [row] = await queryRows<{
          on: boolean;
          secret: string | null;
          codes: number;
          sessions: number;
        }>(
          db,
          sql`select u.totp_enabled as on, u.totp_secret as secret,
                     (select count(*)::int from totp_recovery_codes c where c.user_id = u.id) as codes,
                     (select count(*)::int from sessions s where s.user_id = u.id) as sessions
                from users u where u.username = 'ann'`,
        );
        return row!;
      });
    // Ann has two-factor on, recovery codes and a live session (as after enrolling in the web app).
    await withDb(async ({ db }) => {
      await db.execute(
        sql`update users set totp_enabled = true, totp_secret = 'JBSWY3DPEHPK3PXP', totp_last_step = 1 where username = 'ann'`,
      );
      await db.execute(
        sql`insert into totp_recovery_codes (user_id, code_hash) select id, 'h1' from users where username = 'ann'
            union all select id, 'h2' from users where username = 'ann'`,
      );
    });
    await withDb(async (database) => {
      const app = await buildApp({ config: testConfig(), database });
      try {
        // The password alone no longer signs Ann in: the second step is asked for.
        const res = await app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { Identity: 'ann', Password: 'a long enough password' },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json<{ code: string }>().code).toBe('two_factor_required');
      } finally {
        await app.close();
      }
      await database.db.execute(
        sql`insert into sessions (token_hash, user_id, expires_at) select 'cli-test-session', id, now() + interval '1 hour' from users where username = 'ann'`,
      );
    });
    // Earlier tests signed Ann in too; every one of her sessions must end.
    const before = await counts();
    expect(before).toMatchObject({ on: true, codes: 2 });
    expect(before.sessions).toBeGreaterThanOrEqual(1);

    const run = await portal(['user', 'reset-two-factor', '--username', 'ANN']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Two-factor sign-in is off for "ann"/);
    expect(await counts()).toEqual({ on: false, secret: null, codes: 0, sessions: 0 });

    const again = await portal(['user', 'reset-two-factor', '--username', 'ann']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/had no two-factor sign-in; nothing changed/);
    const unknown = await portal(['user', 'reset-two-factor', '--username', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/there is no account "nobody"/);

    const entries = await withDb(({ db }) =>
      queryRows<{ action: string; actor_username: string; ip: string | null }>(
        db,
        sql`select action, actor_username, ip from audit_log where action = 'two_factor.reset'`,
      ),
    );
    expect(entries).toEqual([{ action: 'two_factor.reset', actor_username: cliUser, ip: null }]);
    // And the password signs Ann in again.
    await withDb(async (database) => {
      const app = await buildApp({ config: testConfig(), database });
      try {
        const res = await app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { Identity: 'ann', Password: 'a long enough password' },
        });
        expect(res.statusCode).toBe(200);
      } finally {
        await app.close();
      }
    });
  }, 180_000);

  it('creates the demo and prints working logins, but never over a real town', async () => {
    const refused = await portal(['demo', '--parcels', '60']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^portal demo: Harrison, Maine already exists and holds data that is not demo data/,
    );
    expect(await rollOf('Harrison')).toMatchObject({ accounts: ['1', '2', '3'] });

    const shared = cli.env;
    const other = cli.pg ? await createTestDatabase() : null;
    cli.env = {
      ...shared,
      DATA_DIR: path.join(dir, 'demo'),
      ...(other?.url ? { DATABASE_URL: other.url } : {}),
    };
    try {
      const run = await portal(['demo', '--parcels', '60']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/Denmark, Maine: 3 parcels/);
      const match = /username demo-provider {2}password (\S+)/.exec(run.stdout);
      expect(match).not.toBeNull();
      // The towns it published and the logins it reset are in the audit log, never the passwords.
      const audit = await (async () => {
        const database =
          other?.database ??
          (await openDatabase({ engine: 'pglite', dataDir: path.join(dir, 'demo'), worker: false }));
        try {
          return await queryRows<{
            action: string;
            actor_username: string;
            ip: string | null;
            after: unknown;
          }>(database.db, sql`select action, actor_username, ip, after from audit_log order by id`);
        } finally {
          if (!other) await database.close();
        }
      })();
      expect(audit.map((a) => [a.action, a.actor_username, a.ip])).toEqual([
        ['demo.publish', cliUser, null],
        ['demo.publish', cliUser, null],
        ['demo.publish', cliUser, null],
        ['demo.logins', cliUser, null],
      ]);
      expect(JSON.stringify(audit)).toContain('demo-provider');
      expect(JSON.stringify(audit)).not.toContain(match![1]!);
      if (!cli.pg) {
        expect(fs.readFileSync(path.join(dir, 'demo', 'demo-logins.txt'), 'utf8')).toContain(match![1]!);
        const database = await openDatabase({
          engine: 'pglite',
          dataDir: path.join(dir, 'demo'),
          worker: false,
        });
        const app = await buildApp({ config: testConfig(), database });
        const res = await app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { Identity: 'demo-provider', Password: match![1]! },
        });
        await app.close();
        await database.close();
        expect(res.statusCode).toBe(200);
      } else {
        const app = await buildApp({ config: testConfig(), database: other!.database });
        const res = await app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { Identity: 'demo-provider', Password: match![1]! },
        });
        await app.close();
        expect(res.statusCode).toBe(200);
      }
    } finally {
      cli.env = shared;
      await other?.drop();
    }
  }, 180_000);
});

describe('serve start-up', () => {
  it('creates the demo on the first start of an empty embedded database only', async () => {
    const fresh = path.join(dir, 'fresh');
    const config = loadConfig({ DATA_DIR: fresh, PORTAL_DEMO: '1', LOG_LEVEL: 'silent', WEB_DIST: '' });
    const io: CliIo = {
      env: {},
      stdin: Readable.from(['']),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
    };
    const database = await openDatabase({ engine: 'pglite', dataDir: fresh, worker: false });
    try {
      const { migrate } = await import('../db/migrate.ts');
      await migrate(database);
      expect(await prepareOnStart(database, { ...config, demo: false }, io, { demoParcels: 30 })).toBeNull();
      expect(
        await prepareOnStart(database, { ...config, databaseUrl: 'postgres://x/y' }, io, { demoParcels: 30 }),
      ).toBeNull();
      const made = await prepareOnStart(database, config, io, { demoParcels: 30 });
      expect(made?.towns.map((t) => t.city)).toEqual(['Denmark', 'Harrison', 'Bridgton']);
      expect(fs.existsSync(path.join(fresh, 'demo-logins.txt'))).toBe(true);
      // Not empty any more: a restart leaves everything alone.
      expect(await prepareOnStart(database, config, io, { demoParcels: 30 })).toBeNull();
    } finally {
      await database.close();
    }
  }, 180_000);
});
