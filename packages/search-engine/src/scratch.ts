/**
 * Most bytes of given-back buffers the engine keeps for the next searches. Enough for the
 * intermediate lists of any search at a million documents (a list of all of them is 4 MB); at ten
 * million the largest searches make theirs anew, as without the pool.
 */
export const SCRATCH_KEPT_BYTES = 32 * 1024 * 1024;

/** Below this a list is made anew: small allocations come from the allocator's free lists at no cost. */
const MIN_POOLED_BYTES = 64 * 1024;

/**
 * Memory for the document lists a search makes and drops (its matches after visibility and filters,
 * their failure masks, a facet's documents, the results' scores), given back when the search ends
 * and lent to the next one. A list of a fifth of a million documents is 800 KB: made anew each time,
 * the kernel mapped and zeroed its pages at every search and unmapped them after the garbage
 * collector freed it (400 page faults and 1.2 ms of system time per filtered search at a million
 * assets), and whatever ran next on the processor (the answer's presenting, serialising and
 * compressing) found its caches cold.
 */
export class ScratchPool {
  /** Buffers given back, largest first. */
  private readonly free: ArrayBuffer[] = [];
  private held = 0;

  constructor(private readonly keptBytes = SCRATCH_KEPT_BYTES) {}

  /** Bytes of the buffers kept for the next searches. */
  get bytes(): number {
    return this.held;
  }

  /** Memory for one search; `release()` gives it back. */
  lease(): Scratch {
    return new Scratch(this);
  }

  /** A buffer of at least `bytes`: the smallest kept one that serves, or a new one. */
  take(bytes: number): ArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.free.length && this.free[i]!.byteLength >= bytes; i++) best = i;
    if (best >= 0) {
      const [buffer] = this.free.splice(best, 1);
      this.held -= buffer!.byteLength;
      return buffer!;
    }
    // Rounded up to a power of two, so lists of searches of about the same size share buffers.
    return new ArrayBuffer(2 ** Math.ceil(Math.log2(bytes)));
  }

  /** Keeps given-back buffers, the largest first, up to the bound. */
  give(buffers: readonly ArrayBuffer[]): void {
    for (const b of buffers) {
      this.free.push(b);
      this.held += b.byteLength;
    }
    this.free.sort((a, b) => b.byteLength - a.byteLength);
    while (this.held > this.keptBytes) this.held -= this.free.pop()!.byteLength;
  }
}

/**
 * The lists one search borrowed. Nothing made from them may outlive the search: `release()` lends
 * them to the next one. Their contents are not zeroed unless asked.
 */
export class Scratch {
  private readonly taken: ArrayBuffer[] = [];

  constructor(private readonly pool: ScratchPool) {}

  private buffer(bytes: number): ArrayBuffer | undefined {
    if (bytes < MIN_POOLED_BYTES) return undefined;
    const buffer = this.pool.take(bytes);
    this.taken.push(buffer);
    return buffer;
  }

  /** A list of `length` entries, to be written before it is read. */
  int32(length: number): Int32Array {
    const buffer = this.buffer(length * 4);
    return buffer ? new Int32Array(buffer, 0, length) : new Int32Array(length);
  }

  /** `length` entries of zero. */
  uint32(length: number): Uint32Array {
    const buffer = this.buffer(length * 4);
    return buffer ? new Uint32Array(buffer, 0, length).fill(0) : new Uint32Array(length);
  }

  /** `length` entries of zero. */
  uint8(length: number): Uint8Array {
    const buffer = this.buffer(length);
    return buffer ? new Uint8Array(buffer, 0, length).fill(0) : new Uint8Array(length);
  }

  /** Gives the borrowed memory back; the lists made from it must no longer be used. */
  release(): void {
    this.pool.give(this.taken);
    this.taken.length = 0;
  }
}
