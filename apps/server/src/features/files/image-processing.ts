import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS } from '@opp/contracts';
import { AppError, payloadTooLarge, unsupportedMediaType, validationFailed } from '../../errors.ts';

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
 * The widest banner stored: a page shows it across at most a 1280-pixel column, on a screen of up to
 * twice the density. Anything wider costs every visitor bytes and the decoder work, and shows nothing more.
 */
export const STORED_MAX_WIDTH = 2560;
/** The most a stored image may weigh after re-encoding: a banner is sent whole to every desktop visitor. */
export const STORED_MAX_BYTES = 1536 * 1024;

/*
 * Image work is CPU-heavy and runs on libuv's thread pool, which also hashes passwords and reads files.
 * One image at a time, on one libvips thread, per process: a burst of uploads or of first requests for a
 * new width waits its turn instead of taking every core from the requests being served.
 */
sharp.concurrency(1);
let imageQueue: Promise<unknown> = Promise.resolve();
function imageJob<T>(work: () => Promise<T>): Promise<T> {
  const result = imageQueue.then(work, work);
  imageQueue = result.catch(() => {});
  return result;
}

/**
 * Checks an upload is a real PNG or JPEG within the limits, and re-encodes it. Re-encoding drops
 * every metadata block (EXIF with GPS, XMP, comments) and any bytes hidden after the image data, so
 * what is served is only pixels; the EXIF orientation is applied first so photos stay upright.
 *
 * The work is bounded by what is kept, not by what was sent: an image wider than STORED_MAX_WIDTH is
 * scaled down as it is decoded (a JPEG is decoded at 1/2, 1/4 or 1/8 of its size by libjpeg itself,
 * "shrink-on-load"), so a 40-megapixel upload is never encoded at 40 megapixels; and the result must
 * weigh at most STORED_MAX_BYTES (lower quality, then fewer pixels, until it does).
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

  // EXIF orientations 5 to 8 turn the image a quarter: its shown width is its stored height.
  const shownWidth = (meta.orientation ?? 1) >= 5 ? meta.height : meta.width;
  let width = Math.min(shownWidth, STORED_MAX_WIDTH);
  try {
    return await imageJob(async () => {
      for (const quality of [88, 80, 72, 64, 56, 48, 40, 32, 24]) {
        const pipeline = sharp(input, options).rotate();
        if (width < shownWidth) pipeline.resize({ width });
        const encoded =
          sniffed === 'png'
            ? pipeline.png({ compressionLevel: 9, adaptiveFiltering: true })
            : pipeline.jpeg({ quality, mozjpeg: true });
        const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
        if (data.length <= STORED_MAX_BYTES || width <= 64) {
          return {
            bytes: data,
            contentType: sniffed === 'png' ? 'image/png' : 'image/jpeg',
            extension: sniffed === 'png' ? 'png' : 'jpg',
            width: info.width,
            height: info.height,
            sha256: createHash('sha256').update(data).digest('hex'),
          } satisfies ProcessedImage;
        }
        // A PNG has no quality to lower; a JPEG loses pixels only once its quality is low.
        if (sniffed === 'png' || quality <= 56)
          width = Math.max(64, Math.floor(width * Math.sqrt(STORED_MAX_BYTES / data.length) * 0.95));
      }
      throw payloadTooLarge('The image is too detailed to store; use a smaller or simpler image');
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
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

/**
 * A stored image scaled down to `width` pixels (a phone's copy of a banner). Never enlarges. The decoder
 * shrinks a JPEG on load, so even a large original costs a fraction of its full decode.
 */
export function resizeImage(
  bytes: Buffer,
  contentType: 'image/png' | 'image/jpeg',
  width: number,
): Promise<Buffer> {
  return imageJob(() => {
    const pipeline = sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS }).resize({
      width,
      withoutEnlargement: true,
    });
    return (
      contentType === 'image/png'
        ? pipeline.png({ compressionLevel: 9, adaptiveFiltering: true })
        : pipeline.jpeg({ quality: 80, mozjpeg: true })
    ).toBuffer();
  });
}
