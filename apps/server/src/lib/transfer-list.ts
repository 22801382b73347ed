/**
 * The buffers of `arrays` that can move to another thread (postMessage's transfer list): those each
 * array fills, each once (postMessage refuses a buffer listed twice). A view into a larger buffer is
 * left to be copied, so the rest of that buffer stays usable.
 */
export function transferList(...arrays: Uint8Array[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const a of arrays)
    if (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength) buffers.add(a.buffer as ArrayBuffer);
  return [...buffers];
}
