/**
 * The sort orders of the index: per sort field every document ordered by its value, made once
 * after a full load and kept in order as assets change, so no search sorts the catalogue.
 */
import type { NumberColumn, Numbers, StringColumn } from './value-columns.ts';

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

/**
 * Per sort field every document ordered by its value ascending, documents without a value last,
 * equal values in document order (see walk for both directions). Made once after a full load
 * (sortAll) and kept in order as assets change (resort), so no search sorts the catalogue.
 */
export class SortOrders {
  private readonly orders = new Map<string, Int32Array<ArrayBuffer>>();
  /** Documents changed since the sort orders were last put right. */
  private readonly unsorted = new Set<number>();

  constructor(
    /** Fields (numeric or string) searches may sort by. */
    readonly fields: readonly string[],
    private readonly numbers: ReadonlyMap<string, NumberColumn>,
    private readonly strings: ReadonlyMap<string, StringColumn>,
  ) {}

  /** Notes a changed document, to be put back in its places by the next resort (once there are orders). */
  changed(doc: number): void {
    if (this.orders.size > 0) this.unsorted.add(doc);
  }

  /** The orders of the sort fields (for a snapshot): not copied. */
  parts(): Map<string, Int32Array<ArrayBuffer>> {
    return new Map([...this.orders].filter(([f]) => this.fields.includes(f)));
  }

  /** Takes the orders of a snapshot, those that hold every one of its `size` documents. */
  restore(orders: ReadonlyMap<string, Int32Array<ArrayBuffer>>, size: number): void {
    for (const f of this.fields) {
      const order = orders.get(f);
      if (order?.length === size) this.orders.set(f, order);
    }
  }

  async sortAll(size: number, pause: () => Promise<void>): Promise<void> {
    for (const f of this.fields) {
      if (this.orders.has(f)) continue;
      await pause();
      this.orders.set(f, this.sortedDocs(f, size));
    }
    this.unsorted.clear();
  }

  /** True when every sort field has its order. */
  get sorted(): boolean {
    return this.fields.every((f) => this.orders.has(f));
  }

  /** Every document in the order of a sort field, made from scratch. */
  private sortedDocs(field: string, size: number): Int32Array<ArrayBuffer> {
    const numbers = this.numbers.get(field);
    if (!numbers) {
      const docs = new Int32Array(size);
      for (let i = 0; i < docs.length; i++) docs[i] = i;
      return docs.sort(this.orderOf(field));
    }
    // Numbers: rank each value among the distinct values (a native sort), then place documents by
    // rank in document order (a counting sort): far cheaper than a comparator sort at a million.
    const n = size;
    const data = grown(numbers.data, n);
    const present = new Float64Array(n);
    let m = 0;
    for (let d = 0; d < n; d++) if (!Number.isNaN(data[d]!)) present[m++] = data[d]!;
    const distinct = present.subarray(0, m).sort();
    let k = 0;
    for (let i = 0; i < m; i++) if (i === 0 || distinct[i]! !== distinct[k - 1]!) distinct[k++] = distinct[i]!;
    const rank = new Int32Array(n);
    const starts = new Int32Array(k + 2);
    for (let d = 0; d < n; d++) {
      const v = data[d]!;
      let r = k;
      if (!Number.isNaN(v)) {
        let lo = 0;
        let hi = k - 1;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (distinct[mid]! < v) lo = mid + 1;
          else hi = mid;
        }
        r = lo;
      }
      rank[d] = r;
      starts[r + 1]!++;
    }
    for (let r = 0; r <= k; r++) starts[r + 1]! += starts[r]!;
    const docs = new Int32Array(n);
    for (let d = 0; d < n; d++) docs[starts[rank[d]!]!++] = d;
    return docs;
  }

  /** Compares two documents as a sort order keeps them: value ascending, none last, then document. */
  private orderOf(field: string): (a: number, b: number) => number {
    const strings = this.strings.get(field);
    if (strings) {
      return (a, b) => {
        const x = strings.get(a);
        const y = strings.get(b);
        return x < y ? -1 : x > y ? 1 : a - b;
      };
    }
    const col = this.numbers.get(field)!;
    return (a, b) => {
      const x = col.get(a);
      const y = col.get(b);
      const xn = Number.isNaN(x);
      const yn = Number.isNaN(y);
      if (xn || yn) return xn && yn ? a - b : xn ? 1 : -1;
      return x - y || a - b;
    };
  }

  /** Puts the documents changed since the last call back in their places in every sort order. */
  resort(size: number): void {
    for (const step of this.resortSteps(size)) step();
  }

  /**
   * The steps of resort(), one per sort order: at a million assets each takes milliseconds, all
   * together over a hundred. The orders are right once every step ran.
   */
  resortSteps(size: number): (() => void)[] {
    if (this.unsorted.size === 0) return [];
    const changed = Int32Array.from(this.unsorted);
    this.unsorted.clear();
    const mark = new Uint8Array(size);
    for (const d of changed) mark[d] = 1;
    return [...this.orders.keys()].map((field) => () => {
      const order = this.orders.get(field)!;
      const cmp = this.orderOf(field);
      // New documents are not in the order yet: they always need a place.
      if (order.length === size && stillInOrder(order, mark, cmp)) return;
      const moved = changed.slice().sort(cmp);
      const kept = new Int32Array(order.length);
      let n = 0;
      for (let i = 0; i < order.length; i++) if (!mark[order[i]!]!) kept[n++] = order[i]!;
      // Each moved document goes where a binary search puts it: O(log n) comparisons each, so
      // texts decoded on reading (file names) are read only that often.
      const next = new Int32Array(size);
      let w = 0;
      let from = 0;
      for (const m of moved) {
        let lo = from;
        let hi = n;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (cmp(kept[mid]!, m) < 0) lo = mid + 1;
          else hi = mid;
        }
        next.set(kept.subarray(from, lo), w);
        w += lo - from;
        from = lo;
        next[w++] = m;
      }
      next.set(kept.subarray(from, n), w);
      this.orders.set(field, next);
    });
  }

  /**
   * Visits documents in the order of a sort field until `visit` answers false: ascending or
   * descending by value, documents without a value last either way, and equal values newest
   * (highest asset id) first. Answers false when the field has no order (yet).
   */
  walk(field: string, dir: 'asc' | 'desc', visit: (doc: number) => boolean): boolean {
    const order = this.orders.get(field);
    if (!order || this.unsorted.size > 0) return false;
    const numbers = this.numbers.get(field);
    const strings = this.strings.get(field);
    const same = numbers
      ? (a: number, b: number) => numbers.get(a) === numbers.get(b)
      : (a: number, b: number) => strings!.get(a) === strings!.get(b);
    let end = order.length;
    if (numbers) while (end > 0 && Number.isNaN(numbers.get(order[end - 1]!))) end--;
    if (dir === 'desc') {
      for (let i = end - 1; i >= 0; i--) if (!visit(order[i]!)) return true;
    } else {
      for (let i = 0; i < end;) {
        let j = i + 1;
        while (j < end && same(order[i]!, order[j]!)) j++;
        for (let k = j - 1; k >= i; k--) if (!visit(order[k]!)) return true;
        i = j;
      }
    }
    for (let i = order.length - 1; i >= end; i--) if (!visit(order[i]!)) return true;
    return true;
  }
}

/**
 * True when an order is still sorted after the marked documents changed: an array is sorted when
 * every neighbouring pair is, and pairs of unchanged documents were and still are. Most changes
 * (keywords, a rating) leave most sort keys (dates, sizes, names) as they were, and then an order
 * needs no new array.
 */
function stillInOrder(order: Int32Array, mark: Uint8Array, cmp: (a: number, b: number) => number): boolean {
  for (let i = 0; i < order.length; i++) {
    if (!mark[order[i]!]) continue;
    if (i > 0 && cmp(order[i - 1]!, order[i]!) > 0) return false;
    if (i + 1 < order.length && cmp(order[i]!, order[i + 1]!) > 0) return false;
  }
  return true;
}

/** `data` with at least `n` entries (NaN for those it lacked). */
function grown(data: Numbers, n: number): Numbers {
  if (data.length >= n) return data;
  const next = data instanceof Float32Array ? new Float32Array(n).fill(NaN) : new Float64Array(n).fill(NaN);
  next.set(data);
  return next;
}
