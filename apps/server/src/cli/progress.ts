import type { ImportProgress } from '../features/rolls/import.service.ts';
import type { CliIo } from './io.ts';

/**
 * The import's progress on a terminal: one line redrawn in place on stderr, at most ten times a second.
 * It shows how far through the file the import is (bytes), or records of the total once that is known.
 * On anything but a terminal (a pipe, a log file, a test) it prints nothing.
 */
export class ProgressBar {
  private readonly enabled: boolean;
  private lastDraw = 0;
  private bytes = 0;
  private drawn = false;

  constructor(
    private readonly io: CliIo,
    private readonly fileBytes: number,
  ) {
    this.enabled = io.stderr.isTTY === true;
  }

  /** Bytes read so far in the current pass. */
  onRead = (bytes: number) => {
    this.bytes = bytes;
  };

  onProgress = (p: ImportProgress) => {
    if (!this.enabled) return;
    const now = Date.now();
    if (p.phase !== 'done' && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    if (p.phase === 'done') return this.clear();
    // The import checks and writes in one pass, so the record total is known only at the end: until
    // then the share of the file read is the progress.
    const fraction = p.total ? p.processed / p.total : this.fileBytes > 0 ? this.bytes / this.fileBytes : 0;
    const label = p.phase === 'validating' ? 'Checking ' : p.phase === 'indexing' ? 'Indexing ' : 'Importing';
    const count = p.total
      ? `${p.processed.toLocaleString('en-US')} / ${p.total.toLocaleString('en-US')} records`
      : `${p.processed.toLocaleString('en-US')} records`;
    const width = Math.max(10, Math.min(40, (this.io.stderr.columns ?? 80) - 50));
    const filled = Math.round(Math.min(1, fraction) * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    this.io.stderr.write(
      `\r${label} ${bar} ${String(Math.floor(fraction * 100)).padStart(3)}%  ${count}\x1b[K`,
    );
    this.drawn = true;
  };

  /** Removes the bar so the summary or the errors start on a clean line. */
  clear() {
    if (this.enabled && this.drawn) this.io.stderr.write('\r\x1b[K');
    this.drawn = false;
  }
}
