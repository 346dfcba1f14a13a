/**
 * The uncoded columns of the index: numbers (ranges, sorting, min/max) as 32- or 64-bit floats,
 * and texts (file names, for sorting) as UTF-8 bytes with offsets.
 */

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

/**
 * Numbers of a column: 32-bit floats while every value is one exactly (half the memory), else
 * 64-bit; it ends after the last document with a value (read through NumberColumn.get).
 */
export type Numbers = Float64Array<ArrayBuffer> | Float32Array<ArrayBuffer>;

/**
 * A growable array of numbers, NaN for no value. It starts with 32-bit floats (small integers,
 * ratings, pixel sizes, codes are exact in them) and turns to 64-bit ones at the first value a
 * 32-bit float does not hold exactly (dates, large sizes, coordinates).
 */
export class NumberColumn {
  data: Numbers = new Float32Array(1024).fill(NaN);

  set(doc: number, value: number | null): void {
    const v = value ?? NaN;
    // Past the end every value is NaN already: a column few or no assets fill stays short.
    if (Number.isNaN(v) && doc >= this.data.length) return;
    const wide = this.data instanceof Float32Array && Math.fround(v) !== v && !Number.isNaN(v);
    if (doc >= this.data.length || wide) {
      const length = doc >= this.data.length ? Math.max(doc + 1, this.data.length * 2) : this.data.length;
      const next = wide || this.data instanceof Float64Array ? new Float64Array(length) : new Float32Array(length);
      next.fill(NaN);
      next.set(this.data);
      this.data = next;
    }
    this.data[doc] = v;
  }

  get(doc: number): number {
    return doc < this.data.length ? this.data[doc]! : NaN;
  }

  /**
   * The documents below `size` whose value is in one of the `ranges` (inclusive; no value is in
   * none), as a bit set like CodeColumn.docsWith: a range filter's documents, made in one pass.
   */
  docsInside(ranges: readonly (readonly [number, number])[], size: number): Uint32Array {
    const bits = new Uint32Array((size + 31) >>> 5);
    const data = this.data;
    const n = Math.min(size, data.length);
    for (const [lo, hi] of ranges) {
      for (let d = 0; d < n; d++) {
        const v = data[d]!;
        // NaN (no value) fails both comparisons.
        if (v >= lo && v <= hi) bits[d >>> 5]! |= 1 << (d & 31);
      }
    }
    return bits;
  }
}

/** A string column as a snapshot keeps it: UTF-8 bytes and, per document, where its text starts. */
export interface StringColumnParts {
  bytes: Uint8Array<ArrayBuffer>;
  /** One more entry than documents. */
  offsets: Int32Array<ArrayBuffer>;
}

/**
 * Texts per document (file names, for sorting). Read from a snapshot they stay UTF-8 bytes and are
 * decoded when read: a million file names as JS strings take about twice the memory. Texts set
 * later (changes, a full load) are kept as strings until the next snapshot packs them.
 */
export class StringColumn {
  private bytes: Buffer = Buffer.alloc(0);
  private offsets = new Int32Array(1);
  /** Documents held in `bytes`. */
  private packed = 0;
  private readonly changed = new Map<number, string>();
  private tail: string[] = [];

  get length(): number {
    return this.packed + this.tail.length;
  }

  get(doc: number): string {
    if (doc >= this.packed) return this.tail[doc - this.packed] ?? '';
    if (this.changed.size > 0) {
      const c = this.changed.get(doc);
      if (c !== undefined) return c;
    }
    return this.bytes.toString('utf8', this.offsets[doc], this.offsets[doc + 1]);
  }

  set(doc: number, value: string): void {
    if (doc < this.packed) {
      // Most changes of an asset keep its file name: setting it again is no change to pack.
      if (this.get(doc) !== value) this.changed.set(doc, value);
    } else {
      while (this.tail.length < doc - this.packed) this.tail.push('');
      this.tail[doc - this.packed] = value;
    }
  }

  /**
   * The first `size` documents' texts as bytes (packing texts set later into them). Runs of
   * unchanged texts are copied as bytes, not decoded and encoded again (a million file names took
   * over 100 ms of one event-loop turn, at every snapshot after a change).
   */
  parts(size: number): StringColumnParts {
    if (size < this.packed) this.repack(size);
    else if (this.changed.size > 0 || this.packed < size) {
      const old = this.offsets;
      const changed = [...this.changed.keys()].sort((a, b) => a - b);
      const added = this.tail.slice(0, size - this.packed);
      while (added.length < size - this.packed) added.push('');
      const offsets = new Int32Array(size + 1);
      let shift = 0;
      let from = 0;
      for (const d of changed) {
        for (let e = from; e < d; e++) offsets[e + 1] = old[e + 1]! + shift;
        const length = Buffer.byteLength(this.changed.get(d)!);
        shift += length - (old[d + 1]! - old[d]!);
        offsets[d + 1] = offsets[d]! + length;
        from = d + 1;
      }
      for (let e = from; e < this.packed; e++) offsets[e + 1] = old[e + 1]! + shift;
      for (const [i, text] of added.entries()) {
        offsets[this.packed + i + 1] = offsets[this.packed + i]! + Buffer.byteLength(text);
      }
      const bytes = Buffer.allocUnsafeSlow(offsets[size]!);
      from = 0;
      for (const d of changed) {
        this.bytes.copy(bytes, offsets[from], old[from], old[d]);
        bytes.write(this.changed.get(d)!, offsets[d]!);
        from = d + 1;
      }
      this.bytes.copy(bytes, offsets[from], old[from], old[this.packed]);
      for (const [i, text] of added.entries()) bytes.write(text, offsets[this.packed + i]!);
      this.bytes = bytes;
      this.offsets = offsets;
      this.tail = this.tail.slice(added.length);
      this.packed = size;
      this.changed.clear();
    }
    const bytes = new Uint8Array(
      this.bytes.buffer,
      this.bytes.byteOffset,
      this.bytes.length,
    ) as Uint8Array<ArrayBuffer>;
    return { bytes, offsets: this.offsets.subarray(0, size + 1) };
  }

  /** Packs the first `size` documents' texts when fewer than those packed are asked for. */
  private repack(size: number): void {
    const offsets = new Int32Array(size + 1);
    for (let d = 0; d < size; d++) offsets[d + 1] = offsets[d]! + Buffer.byteLength(this.get(d));
    const bytes = Buffer.allocUnsafeSlow(offsets[size]!);
    for (let d = 0; d < size; d++) bytes.write(this.get(d), offsets[d]!);
    const tail = this.tail.slice(size - this.packed);
    this.bytes = bytes;
    this.offsets = offsets;
    this.packed = size;
    this.changed.clear();
    this.tail = tail;
  }

  static fromParts(parts: StringColumnParts): StringColumn {
    const col = new StringColumn();
    col.bytes = Buffer.from(parts.bytes.buffer, parts.bytes.byteOffset, parts.bytes.length);
    col.offsets = parts.offsets;
    col.packed = parts.offsets.length - 1;
    return col;
  }
}
