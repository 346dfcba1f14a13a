import { describe, expect, it } from 'vitest';
import { DeliveryLog } from './delivery-log.ts';
import type { Delivery } from './download.repository.ts';

const guest = (assetIds: number[]): Delivery => ({ userId: null, shareId: null, csetId: 0, kind: 'single', assetIds });

/** A repository that records the batches it is given (the SQL is covered by delivered-downloads.test.ts). */
function recorder(fail = false) {
  const batches: { delivery: Delivery; at: number }[][] = [];
  return {
    batches,
    recordDeliveries: async (rows: readonly { delivery: Delivery; at: number }[]) => {
      batches.push([...rows]);
      if (fail) throw new Error('database away');
      return [...rows];
    },
  };
}

describe('DeliveryLog: delivered downloads written in batches (docs/security.md "What is logged")', () => {
  it('writes the downloads delivered within its delay in one batch, each with its own time', async () => {
    const repo = recorder();
    const log = new DeliveryLog(repo, 50);
    log.add(guest([1]), () => undefined, 1000);
    log.add(guest([2, 3]), () => undefined, 1001);
    log.add(guest([4]), () => undefined, 1002);
    expect(repo.batches).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 120));
    expect(repo.batches).toHaveLength(1);
    expect(repo.batches[0]?.map((b) => [b.delivery.assetIds, b.at])).toEqual([
      [[1], 1000],
      [[2, 3], 1001],
      [[4], 1002],
    ]);
  });

  it('writes at once when the batch is full, and settled() writes what is left', async () => {
    const repo = recorder();
    const log = new DeliveryLog(repo, 60_000, 2);
    log.add(guest([1]), () => undefined);
    log.add(guest([2]), () => undefined);
    expect(repo.batches).toHaveLength(1);
    log.add(guest([3]), () => undefined);
    log.add(guest([]), () => undefined);
    await log.settled();
    expect(repo.batches.map((b) => b.map((r) => r.delivery.assetIds[0]))).toEqual([[1, 2], [3]]);
  });

  it('reports a failed batch once to each request that was in it, and goes on with the next', async () => {
    const repo = recorder(true);
    const log = new DeliveryLog(repo, 60_000);
    const seen: string[] = [];
    const first = (err: unknown) => seen.push(`first: ${(err as Error).message}`);
    const second = (err: unknown) => seen.push(`second: ${(err as Error).message}`);
    log.add(guest([1]), first);
    log.add(guest([2]), first);
    log.add(guest([3]), second);
    await log.settled();
    expect(seen.sort()).toEqual(['first: database away', 'second: database away']);
    log.add(guest([4]), first);
    await log.settled();
    expect(repo.batches).toHaveLength(2);
  });
});
