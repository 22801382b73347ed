// glibc's allocator settings for the server process, set by the `portal` command before it starts it
// (glibc reads them once, at process start) and by the benchmark, which starts the server the same way.
// With glibc's defaults the memory a search-index build frees (≈2 GB at the peak of a million-parcel
// roll's build) mostly stayed with the process: each thread's arena keeps what it freed, and the
// adaptive mmap threshold grows until large buffers come from the heap, which only shrinks from its top.
// Measured on the benchmark's data set (PGlite): 1,044 MB after start with the defaults, 698 MB with
// these. An operator's own values, if set, win.
export const MALLOC_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};
