import sharp from 'sharp';
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="240"><rect width="1200" height="240" fill="#3b6e8f"/><text x="40" y="140" font-family="sans-serif" font-size="64" fill="white">Town of Harrison · Demo data</text></svg>`;
const t = performance.now();
const buf = await sharp(Buffer.from(svg)).jpeg({ quality: 75 }).toBuffer();
console.log(buf.length, performance.now() - t);
await sharp(buf).toFile('/tmp/h1scratch/banner.png');
