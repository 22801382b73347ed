import { IMAGE_EXTENSIONS, IMAGE_MAX_BYTES } from '@opp/contracts';

/** What the admin did with the banner field since the page loaded. */
export type BannerChoice = { kind: 'keep' } | { kind: 'new'; file: File } | { kind: 'remove' };

/**
 * Spec §5: only png, jpeg and jpg are offered, and files over the server's 5 MB cap are stopped here
 * rather than after a long upload. The server still checks the bytes themselves.
 */
export function checkBannerFile(file: File): string | null {
  const ext = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (!(IMAGE_EXTENSIONS as readonly string[]).includes(ext))
    return 'Choose a PNG or JPEG image (.png, .jpeg or .jpg).';
  if (file.size > IMAGE_MAX_BYTES) return `The image must be at most ${IMAGE_MAX_BYTES / (1024 * 1024)} MB.`;
  if (file.size === 0) return 'The file is empty.';
  return null;
}

/** The banner a choice leaves the client with, as far as the browser knows before saving. */
export type BannerStep =
  | { op: 'none' }
  | { op: 'create'; file: File }
  | { op: 'replace'; current: string; file: File }
  | { op: 'delete'; current: string };

/**
 * Spec §4 banner save: a new file with an existing banner replaces it; a new file with no banner
 * creates one; a removed image is deleted. (The client is patched afterwards either way.)
 */
export function bannerStep(current: string | null, choice: BannerChoice): BannerStep {
  if (choice.kind === 'new')
    return current ? { op: 'replace', current, file: choice.file } : { op: 'create', file: choice.file };
  if (choice.kind === 'remove' && current) return { op: 'delete', current };
  return { op: 'none' };
}
