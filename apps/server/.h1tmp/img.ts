import fs from 'node:fs';
import { demoBanner, demoHousePhotos } from '../src/features/demo/demo-images.ts';
const t = performance.now();
const photos = await demoHousePhotos('demo-harrison', 8);
const banner = await demoBanner('demo-harrison', 'Town of Harrison');
console.log(Math.round(performance.now() - t), 'ms', photos.map((p) => p.bytes.length), banner.bytes.length);
for (const p of [...photos.slice(0, 3), banner]) fs.writeFileSync(`/tmp/h1scratch/${p.name}`, p.bytes);
