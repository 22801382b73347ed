/*
 * Synchronous CPU work that can take tens of milliseconds (a search of a county's in-memory roll index)
 * runs here, a few milliseconds' worth per turn of the event loop, in the order it was asked for.
 *
 * Run inline, every such search whose request arrived in one poll of the sockets ran back to back before
 * the loop looked at its sockets and timers again, so under load any other request (a record read, a
 * health check) waited for the sum of them: up to 120 ms on the benchmark's mixed load, where one search
 * of the county takes 5 to 50 ms. Taking turns bounds that wait by the slice plus the longest single job;
 * the work itself, and so throughput, is unchanged.
 */

/** A turn runs jobs until this much time has gone; at least one job runs in every turn. */
const SLICE_MS = 4;

const queue: Array<() => void> = [];
let scheduled = false;

function runTurn(): void {
  scheduled = false;
  const started = performance.now();
  do queue.shift()!();
  while (queue.length > 0 && performance.now() - started < SLICE_MS);
  // An immediate set while immediates run waits for the next turn, after the loop's timers and I/O.
  if (queue.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(runTurn);
}

/** Runs `job` in a later turn of the event loop (see above) and settles with its result or error. */
export function inTurn<T>(job: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push(() => {
      try {
        resolve(job());
      } catch (err) {
        reject(err as Error);
      }
    });
    schedule();
  });
}
