/**
 * The one cache helper of the search engine: a map that forgets its least recently used entries
 * when it holds more than `entries` of them or more than `bytes` in all. It keeps a running total of
 * the bytes held, so a miss costs no re-summing, and a value larger than the whole bound is not kept.
 */
export class LruCache<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private held = 0;

  constructor(
    private readonly limits: { entries: number; bytes: number },
    private readonly weigh: (value: V) => number = bytesOf,
  ) {}

  /** Entries held. */
  get size(): number {
    return this.map.size;
  }

  /** Bytes held, as `weigh` counts them. */
  get bytes(): number {
    return this.held;
  }

  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.weigh(value);
    if (bytes > this.limits.bytes || this.limits.entries <= 0) return;
    this.map.set(key, { value, bytes });
    this.held += bytes;
    for (const [k, entry] of this.map) {
      if (this.map.size <= this.limits.entries && this.held <= this.limits.bytes) break;
      this.map.delete(k);
      this.held -= entry.bytes;
    }
  }

  /** The value kept under `key`, made and kept when missing. */
  getOrSet<T extends V>(key: K, make: () => T): T {
    const hit = this.get(key);
    if (hit !== undefined) return hit as T;
    const value = make();
    this.set(key, value);
    return value;
  }

  delete(key: K): void {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.held -= old.bytes;
  }

  clear(): void {
    this.map.clear();
    this.held = 0;
  }
}

/** Bytes of typed arrays (also inside plain objects one level deep); other values count nothing. */
export function bytesOf(value: unknown): number {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value && typeof value === 'object') {
    let n = 0;
    for (const v of Object.values(value)) if (ArrayBuffer.isView(v)) n += v.byteLength;
    return n;
  }
  return 0;
}
