import { describe, expect, it } from 'vitest';
import { ScratchPool } from './scratch.ts';

describe('scratch memory of searches', () => {
  it('lends a search’s given-back lists to the next one, zeroed where asked', () => {
    const pool = new ScratchPool(1 << 24);
    const first = pool.lease();
    const docs = first.int32(100_000);
    const fail = first.uint32(100_000);
    docs.fill(7);
    fail.fill(3);
    first.release();
    expect(pool.bytes).toBe(2 * 2 ** Math.ceil(Math.log2(400_000)));

    const next = pool.lease();
    const again = next.uint32(90_000);
    expect(again.buffer === fail.buffer || again.buffer === docs.buffer).toBe(true);
    expect(again.length).toBe(90_000);
    expect(again.every((v) => v === 0)).toBe(true);
    // While lent, a buffer serves one list only.
    const other = next.int32(90_000);
    expect(other.buffer).not.toBe(again.buffer);
    next.release();
  });

  it('keeps at most its bound, the largest buffers first, and does not pool small lists', () => {
    const pool = new ScratchPool(3 << 20);
    const lease = pool.lease();
    lease.int32(1 << 19); // 2 MB
    lease.int32(1 << 18); // 1 MB
    lease.int32(1 << 17); // 512 KB
    const small = lease.int32(1000);
    expect(small.byteOffset).toBe(0);
    lease.release();
    expect(pool.bytes).toBe(3 << 20);
    // The 512 KB one went: a list of 600 KB gets the 1 MB buffer.
    const next = pool.lease();
    expect(next.uint8(600_000).buffer.byteLength).toBe(1 << 20);
    next.release();
  });
});
