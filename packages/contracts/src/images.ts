import { z } from 'zod';

/** Shared upload limits: the web form's accept list and the server's checks come from here. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MAX_PIXELS = 40_000_000;
export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
export const IMAGE_EXTENSIONS = ['png', 'jpeg', 'jpg'] as const;
export const IMAGE_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

/** POST /api/image and PATCH /api/image/{bannerFile}: the stored (re-encoded) banner. */
export const ImageUploadResponse = z.object({
  BannerImage: z.string(),
  ContentType: z.enum(IMAGE_CONTENT_TYPES),
  Width: z.number().int(),
  Height: z.number().int(),
  ByteSize: z.number().int(),
});
export type ImageUploadResponse = z.infer<typeof ImageUploadResponse>;

/** Stored image names: `<32 hex>.png` or `.jpg`, unique per upload (so they can be cached forever). */
export const STORED_IMAGE_NAME = /^[a-f0-9]{32}\.(png|jpg)$/;
