/** Shared upload limits: the web form's accept list and the server's checks come from here. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MAX_PIXELS = 40_000_000;
export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
export const IMAGE_EXTENSIONS = ['png', 'jpeg', 'jpg'] as const;
export const IMAGE_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';
