/**
 * The buffers of `arrays` that can move to another thread (postMessage's transfer list): those each
 * array fills. A view into a larger buffer is left to be copied, so the rest of that buffer stays usable.
 */
export function transferList(...arrays: Uint8Array[]): ArrayBuffer[] {
  return arrays
    .filter((a) => a.byteOffset === 0 && a.byteLength === a.buffer.byteLength)
    .map((a) => a.buffer as ArrayBuffer);
}
