// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

/** Sorted-array set operations on ascending document numbers. */
export function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const acc = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      acc[k++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return acc.subarray(0, k);
}

export function union(a: Int32Array, b: Int32Array): Int32Array {
  const acc = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) acc[k++] = a[i++]!;
    else if (i >= a.length || b[j]! < a[i]!) acc[k++] = b[j++]!;
    else {
      acc[k++] = a[i++]!;
      j++;
    }
  }
  return acc.subarray(0, k);
}

export function subtract(a: Int32Array, b: Int32Array): Int32Array {
  const acc = new Int32Array(a.length);
  let j = 0;
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    while (j < b.length && b[j]! < x) j++;
    if (j >= b.length || b[j] !== x) acc[k++] = x;
  }
  return acc.subarray(0, k);
}

/**
 * The first index of an ascending list (between `lo` and `hi`) whose entry is not below `key` (`hi`
 * when none).
 */
export function lowerBound<T extends number | string>(
  sorted: ArrayLike<T>,
  key: T,
  lo = 0,
  hi: number = sorted.length,
): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Ascending documents below `size` as a bit set (bit d of word d >>> 5); set in `set` (zeroed, of
 * `(size + 31) >>> 5` words) when given.
 */
export function bitSetOf(
  docs: ArrayLike<number>,
  size: number,
  set: Uint32Array = new Uint32Array((size + 31) >>> 5),
): Uint32Array {
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    set[d >>> 5]! |= 1 << (d & 31);
  }
  return set;
}

/** The documents of a bit set (bit d of word d >>> 5), ascending: a pass over its words, not its documents. */
export function docsOfBitSet(set: Uint32Array): Int32Array {
  let count = 0;
  for (let w = 0; w < set.length; w++) {
    // Bits set in the word (population count).
    let v = set[w]! - ((set[w]! >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    count += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  const docs = new Int32Array(count);
  let k = 0;
  for (let w = 0; w < set.length; w++) {
    let word = set[w]!;
    while (word !== 0) {
      const low = word & -word;
      docs[k++] = (w << 5) + (31 - Math.clz32(low));
      word ^= low;
    }
  }
  return docs;
}
