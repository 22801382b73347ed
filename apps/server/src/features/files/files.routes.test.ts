import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from '@opp/contracts';
import { clientsRepository } from '../clients/clients.repository.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { authHeader, buildClient, buildUser } from '../../../test/factories.ts';

const ctx = setupTestApp();

type Headers = Record<string, string>;
let town: number;
let other: number;
let site: Headers;
let otherSup: Headers;
let provider: Headers;

beforeAll(async () => {
  town = (await buildClient(ctx.db)).id;
  other = (await buildClient(ctx.db)).id;
  site = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 3, manages: town })).id);
  otherSup = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 2, manages: other })).id);
  provider = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 1 })).id);
});

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

function multipart(parts: Part[]) {
  const boundary = `----opp${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename)
      head += `; filename="${p.filename}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}`;
    chunks.push(
      Buffer.from(`${head}\r\n\r\n`),
      Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function upload(
  method: 'POST' | 'PATCH',
  url: string,
  headers: Headers,
  file: Buffer | null,
  fields: Record<string, string>,
  filename = 'banner.png',
  type = 'image/png',
) {
  const parts: Part[] = Object.entries(fields).map(([name, value]) => ({ name, value }));
  if (file) parts.push({ name: 'file', value: file, filename, type });
  const body = multipart(parts);
  return ctx.app.inject({
    method,
    url,
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
}

const png = (w = 64, h = 32) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 20, g: 80, b: 160 } } })
    .png()
    .toBuffer();
const jpegWithSecrets = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 10, b: 10 } } })
    .withExif({ IFD0: { ImageDescription: 'SECRET-EXIF-DESCRIPTION', Artist: 'SECRET-ARTIST' } })
    .jpeg()
    .toBuffer();

/** A PNG whose header claims a huge canvas: a decompression bomb is refused from its header. */
function pngClaiming(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const getImage = (name: string, headers: Headers = {}) =>
  ctx.app.inject({ method: 'GET', url: `/api/files/image/${name}`, headers });
const bannerOf = async (id: number) => (await clientsRepository.findById(ctx.db, id))!.bannerImage;

describe('POST /api/image', () => {
  it('stores a banner whose type comes from its bytes, makes it the client’s, and serves it', async () => {
    // A PNG sent under a .jpg name and a JPEG content type is still a PNG.
    const res = await upload(
      'POST',
      '/api/image',
      site,
      await png(),
      { ClientID: String(town), fileType: 'image/jpeg' },
      'x.jpg',
      'image/jpeg',
    );
    expect(res.statusCode).toBe(201);
    const saved = res.json();
    expect(saved).toMatchObject({ ContentType: 'image/png', Width: 64, Height: 32 });
    expect(saved.BannerImage).toMatch(/^[a-f0-9]{32}\.png$/);
    expect(await bannerOf(town)).toBe(saved.BannerImage);

    const served = await getImage(saved.BannerImage);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toContain('max-age=31536000');
    expect(served.rawPayload.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    expect((await sharp(served.rawPayload).metadata()).width).toBe(64);

    const again = await getImage(saved.BannerImage, { 'if-none-match': served.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('strips EXIF metadata and bytes hidden after the image', async () => {
    const original = Buffer.concat([
      await jpegWithSecrets(),
      Buffer.from('<script>alert("TRAILING-PAYLOAD")</script>'),
    ]);
    expect(original.toString('latin1')).toContain('SECRET-EXIF-DESCRIPTION');
    const res = await upload(
      'POST',
      '/api/image',
      site,
      original,
      { ClientID: String(town) },
      'photo.jpeg',
      'image/jpeg',
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().ContentType).toBe('image/jpeg');
    const served = (await getImage(res.json().BannerImage)).rawPayload;
    const text = served.toString('latin1');
    expect(text).not.toContain('SECRET-EXIF-DESCRIPTION');
    expect(text).not.toContain('SECRET-ARTIST');
    expect(text).not.toContain('TRAILING-PAYLOAD');
    expect((await sharp(served).metadata()).exif).toBeUndefined();
    // The client's previous banner went when this one replaced it.
    expect(await bannerOf(town)).toBe(res.json().BannerImage);
  });

  it('refuses what is not a PNG or JPEG by content (415), whatever its name', async () => {
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(40)]);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .webp()
      .toBuffer();
    for (const bytes of [gif, svg, webp, Buffer.from('just text')]) {
      const res = await upload(
        'POST',
        '/api/image',
        site,
        bytes,
        { ClientID: String(town) },
        'banner.png',
        'image/png',
      );
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
    }
  });

  it('413 over 5 MB or over the pixel cap; 400 for an empty or damaged image', async () => {
    const big = Buffer.concat([await png(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    const tooBig = await upload('POST', '/api/image', site, big, { ClientID: String(town) });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toMatch(/5 MB/);

    const bomb = await upload('POST', '/api/image', site, pngClaiming(20_000, 20_000), {
      ClientID: String(town),
    });
    expect(bomb.statusCode).toBe(413);
    expect(bomb.json().message).toMatch(/megapixels/);

    const empty = await upload('POST', '/api/image', site, Buffer.alloc(0), { ClientID: String(town) });
    expect(empty.statusCode).toBe(400);
    const damaged = Buffer.concat([(await png()).subarray(0, 40), randomBytes(50)]);
    const broken = await upload('POST', '/api/image', site, damaged, { ClientID: String(town) });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().fields[0].field).toBe('file');
  });

  it('4xx, never 500, for a body that is not a good multipart upload', async () => {
    const noFile = await upload('POST', '/api/image', site, null, { ClientID: String(town) });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().fields[0].field).toBe('file');
    const noClient = await upload('POST', '/api/image', site, await png(), {});
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json().fields[0].field).toBe('ClientID');

    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/image',
      headers: site,
      payload: { ClientID: town },
    });
    expect(json.statusCode).toBe(415);

    const truncated = multipart([{ name: 'file', value: await png(), filename: 'a.png' }]);
    const cut = await ctx.app.inject({
      method: 'POST',
      url: '/api/image',
      headers: { ...site, 'content-type': truncated.contentType },
      payload: truncated.payload.subarray(0, 120),
    });
    expect(cut.statusCode).toBe(400);

    const two = multipart([
      { name: 'ClientID', value: String(town) },
      { name: 'file', value: await png(), filename: 'a.png' },
      { name: 'file', value: await png(), filename: 'b.png' },
    ]);
    const twice = await ctx.app.inject({
      method: 'POST',
      url: '/api/image',
      headers: { ...site, 'content-type': two.contentType },
      payload: two.payload,
    });
    expect(twice.statusCode).toBe(413);

    const longField = await upload('POST', '/api/image', site, await png(), {
      ClientID: String(town),
      fileType: 'x'.repeat(500),
    });
    expect(longField.statusCode).toBe(400);
  });

  it('401 anonymous, 403 another town’s admin, 404 unknown client', async () => {
    expect((await upload('POST', '/api/image', {}, await png(), { ClientID: String(town) })).statusCode).toBe(
      401,
    );
    const before = await bannerOf(town);
    expect(
      (await upload('POST', '/api/image', otherSup, await png(), { ClientID: String(town) })).statusCode,
    ).toBe(403);
    expect(await bannerOf(town)).toBe(before);
    expect(
      (await upload('POST', '/api/image', provider, await png(), { ClientID: '999999' })).statusCode,
    ).toBe(404);
  });
});

describe('PATCH and DELETE /api/image/{bannerFile}', () => {
  it('replace: new name, old file gone, client switched; other towns get 403; unknown names 404', async () => {
    const first = (
      await upload('POST', '/api/image', site, await png(10, 10), { ClientID: String(town) })
    ).json();
    const url = `/api/image/${first.BannerImage}`;
    expect((await upload('PATCH', url, otherSup, await png(), { ClientID: String(other) })).statusCode).toBe(
      403,
    );
    expect(
      (
        await upload('PATCH', '/api/image/0123456789abcdef0123456789abcdef.png', site, await png(), {
          ClientID: String(town),
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await upload('PATCH', '/api/image/..%2F..%2Fetc%2Fpasswd', site, await png(), {
          ClientID: String(town),
        })
      ).statusCode,
    ).toBe(404);

    const res = await upload(
      'PATCH',
      url,
      site,
      await jpegWithSecrets(),
      { ClientID: String(town) },
      'b.jpg',
      'image/jpeg',
    );
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(second.BannerImage).not.toBe(first.BannerImage);
    expect(second.BannerImage).toMatch(/\.jpg$/);
    expect(await bannerOf(town)).toBe(second.BannerImage);
    expect((await getImage(first.BannerImage)).statusCode).toBe(404);
    expect((await getImage(second.BannerImage)).headers['content-type']).toBe('image/jpeg');
  });

  it('delete: 401, 403 other town, 200, then the client shows no banner and the file 404s', async () => {
    const saved = (await upload('POST', '/api/image', site, await png(), { ClientID: String(town) })).json();
    const url = `/api/image/${saved.BannerImage}`;
    expect((await ctx.app.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'DELETE', url, headers: otherSup })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'DELETE', url, headers: site })).statusCode).toBe(200);
    expect(await bannerOf(town)).toBeNull();
    expect((await getImage(saved.BannerImage)).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url, headers: site })).statusCode).toBe(404);
  });
});

describe('GET /api/files/image/{file}', () => {
  it('does not serve an inactive client’s images, nor odd names', async () => {
    const hidden = (await buildClient(ctx.db, { isActive: false })).id;
    const saved = (
      await upload('POST', '/api/image', provider, await png(), { ClientID: String(hidden) })
    ).json();
    expect((await getImage(saved.BannerImage)).statusCode).toBe(404);
    await clientsRepository.update(ctx.db, hidden, { isActive: true });
    expect((await getImage(saved.BannerImage)).statusCode).toBe(200);
    expect((await getImage('nothing-here.png')).statusCode).toBe(404);
    expect((await getImage('..%2Fsecret')).statusCode).toBe(400);
  });

  it('scales a banner down for phones: each width its own smaller bytes and ETag, never enlarged', async () => {
    // A photographic JPEG wider than every copy (a flat colour would compress to nothing).
    const noise = Buffer.from(Array.from({ length: 2000 * 400 * 3 }, (_, i) => (i * 7919) % 251));
    const wide = await sharp(noise, { raw: { width: 2000, height: 400, channels: 3 } })
      .jpeg()
      .toBuffer();
    const saved = (
      await upload('POST', '/api/image', site, wide, { ClientID: String(town) }, 'w.jpg', 'image/jpeg')
    ).json();
    const full = await getImage(saved.BannerImage);
    const etags = new Set([full.headers.etag]);
    let previous = full.rawPayload.length;
    for (const w of [1080, 720]) {
      const res = await getImage(`${saved.BannerImage}?w=${w}`);
      expect(res.statusCode, `w=${w}`).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['cache-control']).toContain('immutable');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([w, w / 5]);
      expect(res.rawPayload.length).toBeLessThan(previous);
      previous = res.rawPayload.length;
      etags.add(res.headers.etag);
      const again = await getImage(`${saved.BannerImage}?w=${w}`, {
        'if-none-match': res.headers.etag as string,
      });
      expect(again.statusCode).toBe(304);
    }
    expect(etags.size).toBe(3);

    // An image no wider than the width asked is sent as stored.
    const small = (await upload('POST', '/api/image', site, await png(), { ClientID: String(town) })).json();
    const asStored = await getImage(small.BannerImage);
    const atWidth = await getImage(`${small.BannerImage}?w=720`);
    expect(atWidth.statusCode).toBe(200);
    expect(atWidth.rawPayload.equals(asStored.rawPayload)).toBe(true);
    expect(atWidth.headers.etag).toBe(asStored.headers.etag);

    for (const w of ['100', '480', '1600', '721', '1e309', 'Infinity', '-720', ''])
      expect((await getImage(`${small.BannerImage}?w=${w}`)).statusCode, `w=${w}`).toBe(400);
  });
});
