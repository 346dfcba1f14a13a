import { describe, expect, it } from 'vitest';
import { readAhead } from './change-feed.ts';

async function* numbers(n: number): AsyncGenerator<number> {
  for (let i = 1; i <= n; i++) yield i;
}

describe('readAhead: a catch-up reads the next slice while it applies this one', () => {
  it("starts the next item's read before the caller is done with the current one, in order", async () => {
    const log: string[] = [];
    const read = async (n: number) => {
      log.push(`read ${n}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return n * 10;
    };
    const got: number[] = [];
    for await (const value of readAhead(numbers(3), read)) {
      log.push(`apply ${value}`);
      // The caller's work takes turns of its own; the read of the next item is already under way.
      await new Promise((resolve) => setTimeout(resolve, 20));
      got.push(value);
    }
    expect(got).toEqual([10, 20, 30]);
    expect(log).toEqual(['read 1', 'read 2', 'apply 10', 'read 3', 'apply 20', 'apply 30']);
  });

  it('hands a failed read to the caller, and a caller that stops early leaves no failure unseen', async () => {
    const failing = async (n: number) => {
      if (n === 2) throw new Error('read 2 failed');
      return n;
    };
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const value of readAhead(numbers(3), failing)) seen.push(value);
      })(),
    ).rejects.toThrow('read 2 failed');
    expect(seen).toEqual([1]);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // Item 2's read fails after the caller stopped at item 1.
      for await (const value of readAhead(numbers(3), failing)) if (value === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
