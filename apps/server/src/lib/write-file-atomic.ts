import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes `bytes` to `file` through a temporary file beside it and a rename: readers (and a process
 * writing the same file at once) find it whole or absent, never half-written. Readable by the owner
 * only (a backup holds the whole database). On failure the temporary file is removed and the error
 * thrown.
 */
export function writeFileAtomic(file: string, bytes: Uint8Array | string): void {
  const dir = path.dirname(path.resolve(file));
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.partial`);
  try {
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeFileSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
