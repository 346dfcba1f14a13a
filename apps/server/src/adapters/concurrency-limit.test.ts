import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit, LimitQueueFull } from './concurrency-limit.ts';

describe('ConcurrencyLimit (bounded concurrent password checks)', () => {
  it('runs at most the given number of tasks at once, in order, and refuses beyond the queue', async () => {
    const limit = new ConcurrencyLimit(2, 3);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      order.push(i);
      running--;
      return i;
    };
    const results = await Promise.allSettled(Array.from({ length: 7 }, (_, i) => limit.run(task(i))));
    expect(most).toBe(2);
    expect(results.slice(0, 5).map((r) => r.status === 'fulfilled' && r.value)).toEqual([0, 1, 2, 3, 4]);
    expect(results.slice(5).every((r) => r.status === 'rejected' && r.reason instanceof LimitQueueFull)).toBe(true);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    // The slots are free again afterwards.
    expect(await limit.run(async () => 'again')).toBe('again');
  });

  it('frees the slot when a task fails', async () => {
    const limit = new ConcurrencyLimit(1, 0);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limit.run(async () => 1)).toBe(1);
  });
});
