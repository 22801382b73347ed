import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientsRepository } from '../../src/features/clients/clients.repository.ts';
import { filesRepository } from '../../src/features/files/files.repository.ts';
import { forgetCopiesInProcess, READ_CHUNK_BYTES } from '../../src/features/files/files.service.ts';
import { STORED_MAX_BYTES, STORED_MAX_WIDTH } from '../../src/features/files/image-processing.ts';
import { authHeader, buildClient, buildUser } from '../factories.ts';
import { setupTestApp, testEngine } from '../helpers.ts';
import { multipart } from './world.ts';

/*
 * Issue 37, "Images must not stall the portal": eight anonymous clients fetching a 40-megapixel banner's
 * phone copy (`?w=720`) each made the server read the whole original from the database, and on the
 * embedded engine those reads held up every other query (GET /api/client/{id} went from 9 ms to 6 s).
 * The attack runs here against a listening server, the eight clients on a thread of their own so the
 * figures are the server's; another route's p95 must stay under 3× its idle p95 measured just before.
 */

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000 });

const W = 7744;
const H = 5152; // 39.9 megapixels, just within the 40-megapixel cap
let origin: string;
let town: number;
let banner: { name: string; bytes: Buffer };

/** A 40-megapixel JPEG of smoothed noise, about 4 MB: what a camera's photo of a town hall weighs. */
async function noisyPhoto(): Promise<Buffer> {
  const grain = await sharp({
    create: {
      width: W / 16,
      height: H / 16,
      channels: 3,
      background: { r: 128, g: 128, b: 128 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return sharp(grain).resize(W, H, { kernel: 'cubic' }).jpeg({ quality: 80 }).toBuffer();
}

beforeAll(async () => {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  town = (await buildClient(ctx.db)).id;
  const bytes = await noisyPhoto();
  // Stored as banners were before the cap on stored size (databases still hold such files).
  const name = `${createHash('md5').update(bytes).digest('hex')}.jpg`;
  await filesRepository.insert(ctx.db, {
    name,
    clientId: town,
    kind: 'banner',
    contentType: 'image/jpeg',
    byteSize: bytes.length,
    width: W,
    height: H,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes,
  });
  await clientsRepository.update(ctx.db, town, { bannerImage: name });
  banner = { name, bytes };
}, 120_000);

const p95 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * 0.95) - 1]!;

/** Times `n` sequential requests of `url`. */
async function timeRequests(url: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    times.push(performance.now() - started);
    expect(res.status).toBe(200);
  }
  return times;
}

/**
 * `clients` clients in a process of their own, each fetching `url` again PAUSE_MS after its previous
 * answer arrived (20 requests a second each, 160 together: far more than people looking at a page, and
 * each of them read the whole original before issue 37), while running. The process runs at a lower
 * priority: on a shared machine the clients' own CPU (reading the answers) would otherwise be taken
 * from the server and counted against it; attackers use their own machines.
 */
const PAUSE_MS = 50;
const ATTACKER = `
  let running = false;
  let closed = false;
  const statuses = {};
  const [url, clients, pause] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
  process.on('message', (m) => {
    if (m === 'close') closed = true;
    else running = m === 'run';
  });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const loop = async () => {
    while (!closed) {
      if (!running) { await sleep(5); continue; }
      const res = await fetch(url);
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      await sleep(pause);
    }
  };
  Promise.all(Array.from({ length: clients }, loop)).then(
    () => process.send(statuses, () => process.exit(0)),
    (err) => process.send({ error: String(err) }, () => process.exit(1)),
  );`;

function attackers(url: string, clients: number) {
  const child = spawn(
    'nice',
    ['-n', '10', process.execPath, '-e', ATTACKER, url, String(clients), String(PAUSE_MS)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const done = new Promise<Record<string, number>>((resolve) =>
    child.once('message', (m) => resolve(m as Record<string, number>)),
  );
  return {
    run: () => child.send('run'),
    pause: () => child.send('pause'),
    async close() {
      child.send('close');
      return done;
    },
  };
}

describe('a large banner does not stall the portal (issue 37)', () => {
  afterAll(() => vi.restoreAllMocks());

  it('8 clients fetching a 40-megapixel banner at ?w=720 leave another route’s p95 under 3× idle', async () => {
    const other = `${origin}/api/client/${town}`;
    await timeRequests(other, 10);
    const attack = attackers(`${origin}/api/files/image/${banner.name}?w=720`, 8);
    // Idle and attacked rounds alternate, so both see the same machine (it is shared, and its load moves).
    const idle: number[] = [];
    const loaded: number[] = [];
    for (let round = 0; round < 4; round++) {
      idle.push(...(await timeRequests(other, 75)));
      attack.run();
      await new Promise((r) => setTimeout(r, 200));
      loaded.push(...(await timeRequests(other, 75)));
      attack.pause();
      await new Promise((r) => setTimeout(r, 2 * PAUSE_MS));
    }
    const statuses = await attack.close();
    // Timer resolution: an idle figure under 2 ms counts as 2 ms.
    const idleP95 = Math.max(p95(idle), 2);
    console.log(
      `image attack (${testEngine}): /api/client p95 idle ${p95(idle).toFixed(1)} ms, under attack ` +
        `${p95(loaded).toFixed(1)} ms (${idle.length} requests each); image answers ${JSON.stringify(statuses)}`,
    );
    expect(Object.keys(statuses)).toEqual(['200']);
    expect(statuses['200']).toBeGreaterThan(40);
    expect(p95(loaded)).toBeLessThan(3 * idleP95);
  }, 180_000);

  it('reads the original once per width, keeps the copy for every node, and answers If-None-Match unread', async () => {
    const read = vi.spyOn(filesRepository, 'readChunk');
    const url = `${origin}/api/files/image/${banner.name}?w=1080`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => fetch(url)));
    const bodies = await Promise.all(answers.map(async (r) => Buffer.from(await r.arrayBuffer())));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect((await sharp(bodies[0]!).metadata()).width).toBe(1080);
    const pieces = Math.ceil(banner.bytes.length / READ_CHUNK_BYTES);
    expect(read).toHaveBeenCalledTimes(pieces);

    // Another node (nothing kept in its process) serves the copy from the database.
    forgetCopiesInProcess();
    const again = await fetch(url);
    expect(Buffer.from(await again.arrayBuffer()).equals(bodies[0]!)).toBe(true);
    expect(read).toHaveBeenCalledTimes(pieces);

    // A current copy: 304 with nothing read, for the original and for a copy.
    for (const u of [url, `${origin}/api/files/image/${banner.name}`]) {
      const etag =
        u === url
          ? again.headers.get('etag')!
          : `"${createHash('sha256').update(banner.bytes).digest('hex')}"`;
      const res = await fetch(u, { headers: { 'if-none-match': etag } });
      expect(res.status).toBe(304);
    }
    expect(read).toHaveBeenCalledTimes(pieces);

    // The original itself is sent in pieces, whole.
    const whole = await fetch(`${origin}/api/files/image/${banner.name}`);
    expect(Number(whole.headers.get('content-length'))).toBe(banner.bytes.length);
    expect(Buffer.from(await whole.arrayBuffer()).equals(banner.bytes)).toBe(true);
    expect(read).toHaveBeenCalledTimes(2 * pieces);
  }, 60_000);
});

describe('uploads cost what they weigh (issue 37)', () => {
  it('stores a 40-megapixel upload scaled to the widest banner shown, within the stored-size cap', async () => {
    const admin = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 2, manages: town })).id);
    const body = multipart([
      { name: 'ClientID', value: String(town) },
      { name: 'file', data: banner.bytes, filename: 'town-hall.jpg', type: 'image/jpeg' },
    ]);
    const cpu = process.cpuUsage();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/image',
      headers: { ...admin, ...body.headers },
      payload: body.payload,
    });
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    console.log(`40-megapixel upload (${testEngine}): ${cpuSeconds.toFixed(1)} s of CPU`);
    expect(res.statusCode).toBe(201);
    const saved = res.json();
    expect(saved.Width).toBe(STORED_MAX_WIDTH);
    expect(saved.Height).toBe(Math.round((H * STORED_MAX_WIDTH) / W));
    expect(saved.ByteSize).toBeLessThanOrEqual(STORED_MAX_BYTES);
    // Encoding the whole 40 megapixels took 18 s of CPU; decoded at a quarter and encoded at 2560
    // pixels wide it is a small fraction of that, even on a busy machine.
    expect(cpuSeconds).toBeLessThan(8);
  }, 120_000);
});
