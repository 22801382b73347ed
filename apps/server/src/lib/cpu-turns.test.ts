import { describe, expect, it } from 'vitest';
import { inTurn } from './cpu-turns.ts';

/** Keeps the thread busy, as a search of a large roll does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('inTurn', () => {
  it('settles with each job’s result or error, in the order asked', async () => {
    const order: number[] = [];
    const results = await Promise.allSettled([
      inTurn(() => (order.push(1), 'one')),
      inTurn(() => {
        order.push(2);
        throw new Error('bad input');
      }),
      inTurn(() => (order.push(3), 3)),
    ]);
    expect(order).toEqual([1, 2, 3]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 'one' });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { message: 'bad input' } });
    expect(results[2]).toEqual({ status: 'fulfilled', value: 3 });
  });

  it('lets a timer that falls due run between long jobs, not after all of them', async () => {
    const order: string[] = [];
    const jobs = [1, 2, 3, 4].map((i) =>
      inTurn(() => {
        order.push(`job ${i}`);
        // Due long before this job ends: as a health check that arrives while a search runs.
        if (i === 1) setTimeout(() => order.push('timer'), 1);
        busy(15);
      }),
    );
    await Promise.all(jobs);
    // Run together, the four jobs would hold the thread for 60 ms before the timer could fire.
    expect(order).toEqual(['job 1', 'timer', 'job 2', 'job 3', 'job 4']);
  });

  it('runs many short jobs in one turn rather than one turn each', async () => {
    let turns = 0;
    let counting = true;
    // An immediate that sets itself again runs once in every turn of the loop.
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => inTurn(() => i)));
    counting = false;
    expect(results[199]).toBe(199);
    expect(turns).toBeLessThan(20);
  });
});
