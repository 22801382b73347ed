import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | null = null;

/**
 * A full garbage collection, now. For the one moment a process knows it has just dropped most of its
 * heap (a search index warm-up reads every row of the largest rolls): V8 would otherwise keep the pages
 * it grew into, and the process's memory would stay near the build's peak. Node exposes `gc` only with
 * --expose-gc; setting the flag at run time makes it available to a new context.
 */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}
