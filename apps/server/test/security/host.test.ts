import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { setupTestApp } from '../helpers.ts';

/*
 * Issue 37, "The host": the embedded database's folder is private to the portal's user, and Node's own
 * HTTP errors (before Fastify sees a request) keep the documented error shape. Both against real
 * components: a data folder on disk, and a listening server spoken to over a raw socket.
 */

const ctx = setupTestApp();
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every folder and file under `dir` (the folder itself first) with its permission bits. */
function modes(dir: string): Array<[string, 'dir' | 'file', number]> {
  const out: Array<[string, 'dir' | 'file', number]> = [[dir, 'dir', fs.statSync(dir).mode & 0o777]];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) out.push([full, 'dir', fs.statSync(full).mode & 0o777]);
    else if (entry.isFile()) out.push([full, 'file', fs.statSync(full).mode & 0o777]);
  }
  return out;
}

function expectPrivate(dir: string) {
  const all = modes(dir);
  const wrong = all.filter(([, kind, mode]) => mode !== (kind === 'dir' ? 0o700 : 0o600));
  expect(wrong.map(([p, , m]) => `${path.relative(dir, p)} ${m.toString(8)}`)).toEqual([]);
  return all;
}

describe('the embedded database’s data folder (issue 37)', () => {
  it('is created 0700 with its files 0600, pg_control and the WAL included', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-perm-'));
    made.push(parent);
    const dataDir = path.join(parent, 'data');
    const database = await openDatabase({ engine: 'pglite', dataDir, worker: false });
    try {
      const all = expectPrivate(dataDir);
      const names = all.map(([p]) => path.relative(dataDir, p));
      expect(names).toContain(path.join('pglite', 'global', 'pg_control'));
      expect(names.some((n) => n.startsWith(path.join('pglite', 'pg_wal')))).toBe(true);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('fixes a folder left world-writable by an earlier version when the portal starts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-perm-'));
    made.push(dataDir);
    const first = await openDatabase({ engine: 'pglite', dataDir, worker: false });
    await first.close();
    // What the penetration test found: -rw-rw-rw- files in world-readable folders.
    for (const [p, kind] of modes(dataDir)) fs.chmodSync(p, kind === 'dir' ? 0o777 : 0o666);
    fs.writeFileSync(path.join(dataDir, 'left-over.txt'), 'x', { mode: 0o666 });
    fs.chmodSync(path.join(dataDir, 'left-over.txt'), 0o666);
    const again = await openDatabase({ engine: 'pglite', dataDir, worker: false });
    try {
      expectPrivate(dataDir);
    } finally {
      await again.close();
    }
  }, 60_000);
});

/** Sends raw bytes to the server and reads everything it answers until it closes the connection. */
function raw(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    socket.end(bytes);
  });
}

describe('Node’s own HTTP errors (issue 37)', () => {
  it('answer 400 and 431 with the ErrorBody shape and never echo the request', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.app.server.address() as net.AddressInfo).port;
    const marker = 'ECHOMARKER';
    const cases: Array<[string, string | Buffer, number]> = [
      ['a request line that is not HTTP', `${marker} \u0001 nonsense\r\n\r\n`, 400],
      ['a control character in the path', `GET /api/${marker}\u0001 HTTP/1.1\r\nHost: x\r\n\r\n`, 400],
      ['a malformed header', `GET / HTTP/1.1\r\nHost: x\r\n${marker} no colon\r\n\r\n`, 400],
      [
        'headers past the size limit',
        `GET / HTTP/1.1\r\nHost: x\r\nX-${marker}: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
      ],
    ];
    for (const [what, bytes, status] of cases) {
      const answer = await raw(port, bytes);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head, what).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(head, what).toMatch(/content-type: application\/json/i);
      const parsed = JSON.parse(body!) as Record<string, unknown>;
      expect(Object.keys(parsed).sort(), what).toEqual(['code', 'error', 'message', 'statusCode']);
      expect(parsed.statusCode, what).toBe(status);
      expect(parsed.message, what).toBe(parsed.error);
      expect(answer, what).not.toContain(marker);
    }
  });
});
