import type { PGlite } from '@electric-sql/pglite';
import { copyPieces, type CopyInput } from './copy-text.ts';

/*
 * Bulk loading into the embedded engine without copying the bytes on the way. PGlite's own way in,
 * `COPY … FROM '/dev/blob'` with a Blob, copies them twice before the engine sees them (into the Blob,
 * then out of it with `arrayBuffer()`) and its device hands them to the engine one byte at a time in
 * a JavaScript loop: per 160 MB, what a 100,000-record roll's COPY text comes to, about 450 ms for
 * the copies and 270 ms for the loop, against 5 ms for `Uint8Array.set`, on the engine's own thread,
 * which is what an import on PGlite waits for (decision 0010). Here a device of our own reads the
 * caller's pieces where they are.
 */

/** The path `COPY … FROM` names to read the bytes given to copyFromPieces. */
export const COPY_INPUT_PATH = '/dev/opp-copy-input';

/** The part of PGlite's Emscripten module this file uses (PGlite keeps it as `mod`, protected). */
interface EmscriptenFs {
  makedev(major: number, minor: number): number;
  registerDevice(dev: number, ops: DeviceOps): void;
  mkdev(path: string, dev: number): void;
  ErrnoError: new (errno: number) => Error;
}

interface DeviceOps {
  open(stream: unknown): void;
  close(stream: unknown): void;
  /** `buffer` is the engine's memory (Emscripten passes its HEAP8, signed bytes). */
  read(
    stream: unknown,
    buffer: Int8Array | Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): number;
  write(): number;
  llseek(stream: { position: number }, offset: number, whence: number): number;
}

// Emscripten's error numbers (musl's): bad file descriptor, invalid argument.
const EBADF = 8;
const EINVAL = 28;
// PGlite's /dev/blob is (64, 0).
const DEVICE = [64, 1] as const;

class CopyInputDevice {
  #pieces: Uint8Array[] = [];
  #starts: number[] = [];
  #size = 0;
  /** The piece the last read ended in: reads come in order, so the next one starts there. */
  #at = 0;
  /** One COPY at a time: the device holds one input. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(fs: EmscriptenFs) {
    const dev = fs.makedev(...DEVICE);
    fs.registerDevice(dev, {
      open: () => {},
      close: () => {},
      read: (_stream, buffer, offset, length, position) => this.#read(buffer, offset, length, position),
      write: () => {
        throw new fs.ErrnoError(EBADF);
      },
      llseek: (stream, offset, whence) => {
        const position = offset + (whence === 1 ? stream.position : whence === 2 ? this.#size : 0);
        if (position < 0) throw new fs.ErrnoError(EINVAL);
        return position;
      },
    });
    fs.mkdev(COPY_INPUT_PATH, dev);
  }

  /** Runs `copy` (a `COPY … FROM` this device) with `data` as what the device reads. */
  run(data: CopyInput, copy: () => Promise<unknown>): Promise<void> {
    const turn = this.#queue.then(async () => {
      this.#load(data);
      try {
        await copy();
      } finally {
        this.#load([]);
      }
    });
    this.#queue = turn.catch(() => {});
    return turn;
  }

  #load(data: CopyInput) {
    const encoder = new TextEncoder();
    this.#pieces = copyPieces(data).map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
    this.#starts = [];
    this.#size = 0;
    for (const piece of this.#pieces) {
      this.#starts.push(this.#size);
      this.#size += piece.length;
    }
    this.#at = 0;
  }

  #read(heap: Int8Array | Uint8Array, offset: number, length: number, position: number): number {
    if (position < this.#starts[this.#at]!) this.#at = 0;
    // Unsigned, so each piece goes in as one block copy rather than byte by byte with a conversion.
    const buffer = new Uint8Array(heap.buffer, heap.byteOffset + offset, length);
    let copied = 0;
    while (copied < length && this.#at < this.#pieces.length) {
      const piece = this.#pieces[this.#at]!;
      const from = position + copied - this.#starts[this.#at]!;
      if (from >= piece.length) {
        this.#at++;
        continue;
      }
      const n = Math.min(piece.length - from, length - copied);
      buffer.set(piece.subarray(from, from + n), copied);
      copied += n;
    }
    return copied;
  }
}

const devices = new WeakMap<PGlite, CopyInputDevice>();

/**
 * Runs `sql`, a `COPY … FROM '<COPY_INPUT_PATH>'`, on `pg` with the pieces of `data`, in order, as
 * the file it reads. COPYs on one instance take turns.
 */
export async function copyFromPieces(pg: PGlite, sql: string, data: CopyInput): Promise<void> {
  let device = devices.get(pg);
  if (!device) {
    const fs = (pg as unknown as { mod?: { FS?: EmscriptenFs } }).mod?.FS;
    if (!fs?.registerDevice)
      throw new Error('this version of PGlite does not expose its file system: bulk loading needs it');
    device = new CopyInputDevice(fs);
    devices.set(pg, device);
  }
  await device.run(data, () => pg.query(sql));
}
