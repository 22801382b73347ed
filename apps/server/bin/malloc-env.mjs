// The allocator settings of bin/malloc.env (the one place they are written), for Node scripts that start
// the server the way the `portal` command does (the benchmark).
import fs from 'node:fs';

export const MALLOC_ENV = Object.fromEntries(
  fs
    .readFileSync(new URL('./malloc.env', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => /^\w+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);
