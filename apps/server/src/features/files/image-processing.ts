import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS } from '@opp/contracts';
import { payloadTooLarge, unsupportedMediaType, validationFailed } from '../../errors.ts';

export interface ProcessedImage {
  bytes: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  extension: 'png' | 'jpg';
  width: number;
  height: number;
  sha256: string;
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** The type the bytes say they are; the file name and the declared MIME type are never trusted. */
export function sniffImageType(bytes: Buffer): 'png' | 'jpeg' | null {
  if (bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) return 'png';
  if (bytes.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC)) return 'jpeg';
  return null;
}

const MAX_MB = IMAGE_MAX_BYTES / (1024 * 1024);
const MAX_MEGAPIXELS = IMAGE_MAX_PIXELS / 1_000_000;

/**
 * Checks an upload is a real PNG or JPEG within the limits, and re-encodes it. Re-encoding drops
 * every metadata block (EXIF with GPS, XMP, comments) and any bytes hidden after the image data, so
 * what is served is only pixels; the EXIF orientation is applied first so photos stay upright.
 * @throws 413 (over 5 MB or over the pixel cap), 415 (not PNG/JPEG), 400 (empty or damaged file).
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  if (input.length === 0) throw validationFailed('file', 'the file is empty');
  if (input.length > IMAGE_MAX_BYTES) throw payloadTooLarge(`The image must be at most ${MAX_MB} MB`);
  const sniffed = sniffImageType(input);
  if (!sniffed) throw unsupportedMediaType('The file must be a PNG or JPEG image');
  // libpng decodes a PNG cut short after its last pixel row; a file that lost its end is still damaged.
  if (sniffed === 'png' && !pngChunksComplete(input))
    throw validationFailed('file', 'the image is damaged or incomplete');

  // limitInputPixels makes the decoder refuse a decompression bomb from its header, before allocating.
  const options = { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' as const };
  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, options).metadata();
  } catch (err) {
    throw decodeError(err);
  }
  if (meta.format !== sniffed) throw unsupportedMediaType('The file must be a PNG or JPEG image');
  if (!meta.width || !meta.height) throw validationFailed('file', 'the image has no size');
  if (meta.width * meta.height > IMAGE_MAX_PIXELS)
    throw payloadTooLarge(`The image must be at most ${MAX_MEGAPIXELS} megapixels`);

  try {
    const pipeline = sharp(input, options).rotate();
    const encoded =
      sniffed === 'png'
        ? pipeline.png({ compressionLevel: 9, adaptiveFiltering: true })
        : pipeline.jpeg({ quality: 88, mozjpeg: true });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return {
      bytes: data,
      contentType: sniffed === 'png' ? 'image/png' : 'image/jpeg',
      extension: sniffed === 'png' ? 'png' : 'jpg',
      width: info.width,
      height: info.height,
      sha256: createHash('sha256').update(data).digest('hex'),
    };
  } catch (err) {
    throw decodeError(err);
  }
}

/** Every chunk lies within the file and an IEND chunk closes the image (bytes after it are ignored). */
export function pngChunksComplete(bytes: Buffer): boolean {
  let offset = PNG_MAGIC.length;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (offset + 12 + length > bytes.length) return false;
    if (type === 'IEND') return true;
    offset += 12 + length;
  }
  return false;
}

function decodeError(err: unknown) {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message))
    return payloadTooLarge(`The image must be at most ${MAX_MEGAPIXELS} megapixels`);
  return validationFailed('file', 'the image is damaged or incomplete');
}

/** Resized copies already made, by content hash and width (bounded: least recently used go first). */
const resized = new Map<string, Buffer>();
let resizedBytes = 0;
const RESIZED_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The stored image scaled down to `width` pixels (a phone's copy of a banner; never enlarged: an image
 * at most that wide is returned as stored). Made on first request and kept in this process: a few
 * kilobytes a banner, and any node can remake it from the stored bytes.
 */
export async function imageAtWidth(
  image: { bytes: Buffer; sha256: string; width: number; contentType: string },
  width: number,
): Promise<Buffer> {
  if (image.width <= width) return image.bytes;
  const key = `${image.sha256}:${width}`;
  const hit = resized.get(key);
  if (hit) {
    resized.delete(key);
    resized.set(key, hit);
    return hit;
  }
  const pipeline = sharp(image.bytes, { limitInputPixels: IMAGE_MAX_PIXELS }).resize({ width });
  const bytes = await (
    image.contentType === 'image/png'
      ? pipeline.png({ compressionLevel: 9, adaptiveFiltering: true })
      : pipeline.jpeg({ quality: 80, mozjpeg: true })
  ).toBuffer();
  resized.set(key, bytes);
  resizedBytes += bytes.length;
  for (const [k, v] of resized) {
    if (resizedBytes <= RESIZED_MAX_BYTES) break;
    resized.delete(k);
    resizedBytes -= v.length;
  }
  return bytes;
}
