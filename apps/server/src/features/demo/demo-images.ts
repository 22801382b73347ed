import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { Prng } from './prng.ts';

/*
 * Pictures for the demo towns, drawn as SVG and encoded as JPEG with sharp: small house "photos" and a
 * town banner. Each says it is a demo picture, so nobody mistakes it for a real place.
 */

export interface DemoImage {
  name: string;
  bytes: Buffer;
  width: number;
  height: number;
  sha256: string;
}

const BODY = [
  '#f4f1ea',
  '#d9d4c7',
  '#9b2d20',
  '#e8d27a',
  '#6f8fa8',
  '#5f7d5a',
  '#b7b09c',
  '#2f4858',
  '#c9a66b',
];
const ROOF = ['#3b3b3b', '#262626', '#5a3d2b', '#2f5233', '#6b6b6b', '#7a2e1f'];
const TRIM = ['#ffffff', '#f0ede4', '#1f1f1f'];
const SKY = [
  ['#9cc9ef', '#e6f2fb'],
  ['#b5d3e7', '#f4f7fa'],
  ['#f2c894', '#fbe9d2'],
  ['#a7c4d9', '#dde8ef'],
];

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function houseSvg(r: Prng, w: number, h: number): string {
  const [skyTop, skyBottom] = r.pick(SKY);
  const body = r.pick(BODY);
  const roof = r.pick(ROOF);
  const trim = r.pick(TRIM.filter((t) => t !== body));
  const ground = h * 0.72;
  const style = r.pick(['cape', 'colonial', 'ranch'] as const);
  const houseW = style === 'ranch' ? w * 0.62 : style === 'cape' ? w * 0.48 : w * 0.42;
  const wallH = style === 'colonial' ? h * 0.36 : style === 'ranch' ? h * 0.17 : h * 0.2;
  const roofH = style === 'cape' ? h * 0.2 : style === 'ranch' ? h * 0.09 : h * 0.13;
  const x = (w - houseW) / 2 + r.range(-w * 0.08, w * 0.08, 1);
  const top = ground - wallH;
  const parts: string[] = [];
  parts.push(
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/></linearGradient></defs>`,
    `<rect width="${w}" height="${h}" fill="url(#sky)"/>`,
    `<rect y="${ground}" width="${w}" height="${h - ground}" fill="${r.pick(['#6e8f4e', '#7c9a55', '#5d7d43'])}"/>`,
  );
  // Trees behind the house.
  for (let i = 0, n = r.int(2, 5); i < n; i++) {
    const tx = r.range(0, w, 1);
    const th = r.range(h * 0.25, h * 0.5, 1);
    parts.push(
      `<polygon points="${tx},${ground - th} ${tx - th * 0.28},${ground} ${tx + th * 0.28},${ground}" fill="${r.pick(['#2f5d3a', '#3d6b45', '#27492f'])}"/>`,
    );
  }
  if (r.chance(0.6))
    parts.push(
      `<rect x="${x + houseW * 0.7}" y="${top - roofH * 0.9}" width="${houseW * 0.07}" height="${roofH}" fill="#7d4a3a"/>`,
    );
  parts.push(
    `<polygon points="${x - 10},${top} ${x + houseW / 2},${top - roofH} ${x + houseW + 10},${top}" fill="${roof}"/>`,
    `<rect x="${x}" y="${top}" width="${houseW}" height="${wallH}" fill="${body}" stroke="${trim}" stroke-width="2"/>`,
  );
  const doorW = houseW * 0.09;
  const doorX = x + houseW / 2 - doorW / 2;
  parts.push(
    `<rect x="${doorX}" y="${ground - wallH * 0.55}" width="${doorW}" height="${wallH * 0.55}" fill="${r.pick(['#7a2e1f', '#2f4858', '#1f1f1f', '#5f7d5a'])}"/>`,
  );
  const floors = style === 'colonial' ? 2 : 1;
  for (let f = 0; f < floors; f++) {
    const wy = top + (wallH / floors) * f + (wallH / floors) * 0.22;
    for (const fx of [0.14, 0.3, 0.62, 0.78]) {
      parts.push(
        `<rect x="${x + houseW * fx}" y="${wy}" width="${houseW * 0.09}" height="${(wallH / floors) * 0.42}" fill="#cfe3f1" stroke="${trim}" stroke-width="3"/>`,
      );
    }
  }
  if (style === 'cape')
    for (const fx of [0.3, 0.62])
      parts.push(
        `<rect x="${x + houseW * fx}" y="${top - roofH * 0.55}" width="${houseW * 0.1}" height="${roofH * 0.4}" fill="${body}" stroke="${trim}" stroke-width="2"/>`,
      );
  parts.push(
    `<rect x="${w - 128}" y="${h - 30}" width="120" height="22" rx="4" fill="#000" fill-opacity="0.55"/>`,
    `<text x="${w - 68}" y="${h - 14}" font-family="sans-serif" font-size="13" fill="#fff" text-anchor="middle">DEMO PHOTO</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${parts.join('')}</svg>`;
}

function bannerSvg(title: string, w: number, h: number): string {
  const hills = [0.55, 0.68].map((level, i) => {
    const pts: string[] = [`0,${h}`];
    for (let x = 0; x <= w; x += 60)
      pts.push(`${x},${h * level + Math.sin(x / (140 + i * 90) + i) * h * 0.08}`);
    pts.push(`${w},${h}`);
    return `<polygon points="${pts.join(' ')}" fill="${i ? '#2d5a3d' : '#4f7d5c'}"/>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2b5d87"/><stop offset="1" stop-color="#a9cbe3"/></linearGradient></defs>
    <rect width="${w}" height="${h}" fill="url(#s)"/>${hills.join('')}
    <rect y="${h * 0.82}" width="${w}" height="${h * 0.18}" fill="#3f7fa8"/>
    <text x="48" y="${h * 0.42}" font-family="sans-serif" font-size="${Math.round(h * 0.22)}" font-weight="bold" fill="#fff">${esc(title)}</text>
    <text x="50" y="${h * 0.6}" font-family="sans-serif" font-size="${Math.round(h * 0.1)}" fill="#fff">Demo data · synthetic records for trying out the portal</text>
  </svg>`;
}

async function encode(name: string, svg: string, quality: number): Promise<DemoImage> {
  const { data, info } = await sharp(Buffer.from(svg))
    .jpeg({ quality, mozjpeg: false })
    .toBuffer({ resolveWithObject: true });
  return {
    name,
    bytes: data,
    width: info.width,
    height: info.height,
    sha256: createHash('sha256').update(data).digest('hex'),
  };
}

/** `count` house pictures for a town, named `<prefix>-house-<n>.jpg`; the same pictures every time. */
export async function demoHousePhotos(prefix: string, count: number): Promise<DemoImage[]> {
  const r = new Prng(`open-property-portal demo photos ${prefix}`);
  const svgs = Array.from({ length: count }, () => houseSvg(r, 480, 320));
  return Promise.all(svgs.map((svg, i) => encode(`${prefix}-house-${i + 1}.jpg`, svg, 72)));
}

/** The town banner, named `<prefix>-banner.jpg`. */
export async function demoBanner(prefix: string, title: string): Promise<DemoImage> {
  return encode(`${prefix}-banner.jpg`, bannerSvg(title, 1200, 240), 80);
}
