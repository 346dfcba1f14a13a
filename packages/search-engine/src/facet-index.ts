/**
 * The in-memory part of the search engine: per asset the facet values as integer codes, numbers for
 * ranges and sorting, access groups as bit masks. Counting facets over typed arrays of matched
 * documents is what makes faceted search fast at a million assets (FACTS.md); the database answers
 * only the full-text part. Documents are kept in ascending asset id order, so sorted id lists from
 * the text index map onto sorted document numbers.
 */

import type { AccessRule } from './ports.ts';
import { FrequentWords, type WordPostings } from './frequent-words.ts';

const EMPTY = new Int32Array(0);
/** The code of no value, in a single-valued column. */
const NONE = -1;

/** Values of one field as codes into a dictionary; several per document for multi-valued fields. */
export class CodeColumn {
  readonly dict = new Map<string, number>();
  readonly values: string[] = [];
  /**
   * Per packed document the start of its codes (one more entry than documents), or null while no
   * document has more than one value: then `codes` holds one code per document, NONE for none,
   * and a million documents need no offsets (4 MB less per single-valued field).
   */
  private offsets: Int32Array<ArrayBuffer> | null = new Int32Array(1);
  private codes = EMPTY;
  private packedCount = 0;
  /** Documents set after the last packing (updates, new assets). */
  private readonly loose = new Map<number, Int32Array>();
  private looseDocs: Int32Array | undefined;
  private pending: number[] = [];
  private pendingOffsets: number[] = [0];

  code(value: string): number {
    let c = this.dict.get(value);
    if (c === undefined) {
      c = this.values.length;
      this.dict.set(value, c);
      this.values.push(value);
    }
    return c;
  }

  private encode(values: readonly string[]): number[] {
    const acc: number[] = [];
    for (const v of values) {
      const c = this.code(v);
      if (!acc.includes(c)) acc.push(c);
    }
    return acc;
  }

  /** Appends during a bulk load (documents in order); `pack()` finishes it. */
  push(values: readonly string[]): void {
    for (const c of this.encode(values)) this.pending.push(c);
    this.pendingOffsets.push(this.pending.length);
  }

  pack(): void {
    if (this.pendingOffsets.length > 1) this.packPending();
    if (this.loose.size > Math.max(4096, this.packedCount >> 6)) this.merge();
    this.compact();
  }

  /** True when the pending documents have at most one value each. */
  private pendingSingle(): boolean {
    const p = this.pendingOffsets;
    for (let i = 1; i < p.length; i++) if (p[i] - p[i - 1] > 1) return false;
    return true;
  }

  private packPending(): void {
    const added = this.pendingOffsets.length - 1;
    if (this.offsets === null && this.pendingSingle()) {
      const codes = new Int32Array(this.packedCount + added);
      codes.set(this.codes);
      const p = this.pendingOffsets;
      for (let i = 0; i < added; i++) codes[this.packedCount + i] = p[i + 1] > p[i] ? this.pending[p[i]] : NONE;
      this.codes = codes;
    } else {
      const offsets = this.multiOffsets();
      const base = this.codes.length;
      const codes = new Int32Array(base + this.pending.length);
      codes.set(this.codes);
      codes.set(this.pending, base);
      const next = new Int32Array(this.packedCount + this.pendingOffsets.length);
      next.set(offsets.subarray(0, this.packedCount + 1));
      for (let i = 1; i < this.pendingOffsets.length; i++) next[this.packedCount + i] = base + this.pendingOffsets[i];
      this.codes = codes;
      this.offsets = next;
    }
    this.packedCount += added;
    this.pending = [];
    this.pendingOffsets = [0];
  }

  /**
   * The per-document offsets of the packed codes, turning a single-valued column into the general
   * form (when a document gets a second value). An empty column's are all 0.
   */
  private multiOffsets(): Int32Array<ArrayBuffer> {
    const n = this.packedCount;
    if (this.offsets !== null) return this.codes.length === 0 ? new Int32Array(n + 1) : this.offsets;
    const offsets = new Int32Array(n + 1);
    let k = 0;
    for (let d = 0; d < n; d++) {
      if (this.codes[d] !== NONE) this.codes[k++] = this.codes[d];
      offsets[d + 1] = k;
    }
    this.codes = this.codes.slice(0, k);
    this.offsets = offsets;
    return offsets;
  }

  /**
   * The smallest form of the packed arrays: a column without any value keeps no per-document
   * offsets, one whose documents have at most one value each keeps one code per document.
   */
  private compact(): void {
    const offsets = this.offsets;
    if (offsets === null) return;
    if (this.codes.length === 0) {
      if (offsets.length > 1) this.offsets = new Int32Array(1);
      return;
    }
    const n = this.packedCount;
    for (let d = 0; d < n; d++) if (offsets[d + 1] - offsets[d] > 1) return;
    const codes = new Int32Array(n);
    for (let d = 0; d < n; d++) codes[d] = offsets[d + 1] > offsets[d] ? this.codes[offsets[d]] : NONE;
    this.codes = codes;
    this.offsets = null;
  }

  /** Folds documents set after packing back into the packed arrays, so counting stays on the fast path. */
  private merge(): void {
    const n = this.packedCount;
    const changed = this.looseSorted().filter((d) => d < n);
    if (this.offsets === null && changed.every((d) => this.loose.get(d)!.length <= 1)) {
      const codes = this.codes.slice();
      for (const d of changed) {
        const vals = this.loose.get(d)!;
        codes[d] = vals.length > 0 ? vals[0] : NONE;
      }
      this.codes = codes;
    } else {
      const oldOffsets = this.multiOffsets();
      const source = this.codes;
      let total = oldOffsets[n];
      for (const d of changed) total += this.loose.get(d)!.length - (oldOffsets[d + 1] - oldOffsets[d]);
      const codes = new Int32Array(total);
      const offsets = new Int32Array(n + 1);
      let k = 0;
      let from = 0;
      // Runs of unchanged documents are copied in one piece (a million documents in milliseconds).
      const copy = (to: number) => {
        const shift = k - oldOffsets[from];
        codes.set(source.subarray(oldOffsets[from], oldOffsets[to]), k);
        for (let d = from; d < to; d++) offsets[d + 1] = oldOffsets[d + 1] + shift;
        k += oldOffsets[to] - oldOffsets[from];
      };
      for (const d of changed) {
        copy(d);
        const vals = this.loose.get(d)!;
        codes.set(vals, k);
        k += vals.length;
        offsets[d + 1] = k;
        from = d + 1;
      }
      copy(n);
      this.codes = codes;
      this.offsets = offsets;
    }
    this.loose.clear();
    this.looseDocs = undefined;
    this.compact();
  }

  set(doc: number, values: readonly string[]): void {
    if (!this.loose.has(doc)) this.looseDocs = undefined;
    this.loose.set(doc, Int32Array.from(this.encode(values)));
  }

  /** Folds every document set after packing into the packed arrays. */
  fold(): void {
    if (this.pending.length > 0 || this.pendingOffsets.length > 1) this.pack();
    if (this.loose.size > 0) this.merge();
  }

  /**
   * The packed arrays and dictionary, with every later-set document folded in (for a snapshot).
   * A single-valued column has no offsets (an empty array) and one code per document.
   */
  parts(): CodeColumnParts {
    this.fold();
    const offsets =
      this.offsets === null
        ? EMPTY
        : this.codes.length === 0
          ? this.offsets
          : this.offsets.subarray(0, this.packedCount + 1);
    return { values: this.values, offsets, codes: this.codes };
  }

  /** A column from parts() of another one (a snapshot). */
  static fromParts(parts: CodeColumnParts, packedCount: number): CodeColumn {
    const col = new CodeColumn();
    for (const v of parts.values) col.code(v);
    col.offsets = parts.offsets.length === 0 ? null : parts.offsets;
    col.codes = parts.codes;
    col.packedCount = packedCount;
    return col;
  }

  get(doc: number): Int32Array {
    const l = this.loose.size > 0 ? this.loose.get(doc) : undefined;
    if (l) return l;
    if (doc >= this.packedCount || this.codes.length === 0) return EMPTY;
    if (this.offsets === null) return this.codes[doc] === NONE ? EMPTY : this.codes.subarray(doc, doc + 1);
    return this.codes.subarray(this.offsets[doc], this.offsets[doc + 1]);
  }

  /** The documents set after packing, ascending (made again after a document is added to them). */
  private looseSorted(): Int32Array {
    this.looseDocs ??= Int32Array.from(this.loose.keys()).sort();
    return this.looseDocs;
  }

  /**
   * Adds one to counts[code] for every value of every listed document (ascending, as matches are).
   * Documents set after packing are found by walking their sorted list alongside, so a change of a
   * few thousand assets keeps counting on the packed arrays (a lookup per document would cost a
   * million at a million).
   */
  count(docs: Int32Array, counts: Int32Array): void {
    const { offsets, codes, packedCount } = this;
    const loose = this.loose.size > 0 ? this.looseSorted() : EMPTY;
    if (loose.length === 0 && codes.length === 0) return;
    let j = 0;
    let last = -1;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i];
      if (loose.length > 0) {
        // Out of order (not from a match): find the place again.
        if (d < last) j = lowerBound(loose, d);
        last = d;
        while (j < loose.length && loose[j] < d) j++;
        if (j < loose.length && loose[j] === d) {
          const vals = this.loose.get(d)!;
          for (let k = 0; k < vals.length; k++) counts[vals[k]]++;
          continue;
        }
      }
      if (d >= packedCount || codes.length === 0) continue;
      if (offsets === null) {
        const c = codes[d];
        if (c !== NONE) counts[c]++;
      } else for (let k = offsets[d], end = offsets[d + 1]; k < end; k++) counts[codes[k]]++;
    }
  }

  has(doc: number, wanted: Uint8Array): boolean {
    if (this.loose.size === 0 || !this.loose.has(doc)) {
      // Hot path of filtering: read the packed codes without making a subarray per document.
      if (doc >= this.packedCount || this.codes.length === 0) return false;
      const { offsets, codes } = this;
      if (offsets === null) return codes[doc] !== NONE && wanted[codes[doc]] === 1;
      for (let k = offsets[doc], end = offsets[doc + 1]; k < end; k++) if (wanted[codes[k]]) return true;
      return false;
    }
    const vals = this.get(doc);
    for (let k = 0; k < vals.length; k++) if (wanted[vals[k]]) return true;
    return false;
  }
}

export interface CodeColumnParts {
  values: readonly string[];
  /**
   * Per document the start of its codes, one more entry than documents; just [0] when there are no
   * codes; empty when no document has more than one value (then `codes` has one per document, -1
   * for none).
   */
  offsets: Int32Array<ArrayBuffer>;
  codes: Int32Array<ArrayBuffer>;
}

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
    return doc < this.data.length ? this.data[doc] : NaN;
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

  /** The first `size` documents' texts as bytes (packing texts set later into them). */
  parts(size: number): StringColumnParts {
    if (this.changed.size === 0 && this.packed < size && this.tail.length >= size - this.packed) {
      // Only texts of new documents: appended to the bytes, the others are not encoded again.
      const added = this.tail.slice(0, size - this.packed);
      const offsets = new Int32Array(size + 1);
      offsets.set(this.offsets.subarray(0, this.packed + 1));
      for (const [i, text] of added.entries()) {
        offsets[this.packed + i + 1] = offsets[this.packed + i] + Buffer.byteLength(text);
      }
      const bytes = Buffer.allocUnsafeSlow(offsets[size]);
      this.bytes.copy(bytes, 0, 0, offsets[this.packed]);
      for (const [i, text] of added.entries()) bytes.write(text, offsets[this.packed + i]);
      this.bytes = bytes;
      this.offsets = offsets;
      this.tail = this.tail.slice(added.length);
      this.packed = size;
    } else if (this.changed.size > 0 || this.tail.length > 0 || this.packed !== size) {
      const offsets = new Int32Array(size + 1);
      for (let d = 0; d < size; d++) offsets[d + 1] = offsets[d] + Buffer.byteLength(this.get(d));
      const bytes = Buffer.allocUnsafeSlow(offsets[size]);
      for (let d = 0; d < size; d++) bytes.write(this.get(d), offsets[d]);
      const tail = this.tail.slice(size - this.packed);
      this.bytes = bytes;
      this.offsets = offsets;
      this.packed = size;
      this.changed.clear();
      this.tail = tail;
    }
    const bytes = new Uint8Array(
      this.bytes.buffer,
      this.bytes.byteOffset,
      this.bytes.length,
    ) as Uint8Array<ArrayBuffer>;
    return { bytes, offsets: this.offsets.subarray(0, size + 1) };
  }

  static fromParts(parts: StringColumnParts): StringColumn {
    const col = new StringColumn();
    col.bytes = Buffer.from(parts.bytes.buffer, parts.bytes.byteOffset, parts.bytes.length);
    col.offsets = parts.offsets;
    col.packed = parts.offsets.length - 1;
    return col;
  }
}

/** One asset as the index keeps it. */
export interface IndexRow {
  id: number;
  active: boolean;
  access: string[];
  codes: Record<string, string[]>;
  numbers: Record<string, number | null>;
  strings: Record<string, string>;
}

/** Everything a FacetIndex holds, as typed arrays and plain values (what a snapshot stores). */
export interface FacetIndexParts {
  size: number;
  ids: Int32Array<ArrayBuffer>;
  active: Uint8Array<ArrayBuffer>;
  groups: [string, number][];
  masks: Uint32Array<ArrayBuffer>[];
  codes: Map<string, CodeColumnParts>;
  numbers: Map<string, Numbers>;
  strings: Map<string, StringColumnParts>;
  /** Postings of frequent words (frequent-words.ts), when the index keeps them. */
  words?: Map<string, WordPostings>;
  /** Per sort field the documents in sort order (see sortOrder); absent ones are made anew. */
  orders: Map<string, Int32Array<ArrayBuffer>>;
}

export class FacetIndex {
  ids = new Int32Array(1024);
  active = new Uint8Array(1024);
  size = 0;
  /** Changes with every write, so caches (sort orders, counts) know they are stale. */
  version = 0;
  readonly codes = new Map<string, CodeColumn>();
  readonly numbers = new Map<string, NumberColumn>();
  readonly strings = new Map<string, StringColumn>();
  /** Access groups: bit g of masks[g >> 5][doc] is set when the document is visible to group g. */
  private readonly groupBits = new Map<string, number>();
  private masks: Uint32Array<ArrayBuffer>[] = [];
  /**
   * Per sort field every document ordered by its value ascending, documents without a value last,
   * equal values in document order (see walkOrder for both directions). Made once after a full load
   * (sortOrders) and kept in order as assets change (pack), so no search sorts the catalogue.
   */
  private readonly orders = new Map<string, Int32Array<ArrayBuffer>>();
  /** Postings of the catalogue's frequent words, for a text index dear to ask for them. */
  frequent: FrequentWords | undefined;
  /** Documents changed since the sort orders were last put right. */
  private readonly unsorted = new Set<number>();

  constructor(
    codedFields: readonly string[],
    numericFields: readonly string[],
    stringFields: readonly string[],
    /** Fields (numeric or string) searches may sort by. */
    readonly sortFields: readonly string[] = [],
  ) {
    for (const f of codedFields) this.codes.set(f, new CodeColumn());
    for (const f of numericFields) this.numbers.set(f, new NumberColumn());
    for (const f of stringFields) this.strings.set(f, new StringColumn());
  }

  /** The index's arrays as they are (for a snapshot): they are not copied, so do not change the index meanwhile. */
  parts(): FacetIndexParts {
    const size = this.size;
    return {
      size,
      ids: this.ids.subarray(0, size),
      active: this.active.subarray(0, size),
      groups: [...this.groupBits],
      masks: this.masks.map((m) => m.subarray(0, size)),
      codes: new Map([...this.codes].map(([f, col]) => [f, col.parts()])),
      numbers: new Map([...this.numbers].map(([f, col]) => [f, col.data.subarray(0, Math.min(size, col.data.length))])),
      strings: new Map([...this.strings].map(([f, col]) => [f, col.parts(size)])),
      orders: new Map([...this.orders].filter(([f]) => this.sortFields.includes(f))),
      words: this.frequent?.words,
    };
  }

  /** An index made of parts() of another one with the same fields (a snapshot). */
  static fromParts(
    parts: FacetIndexParts,
    codedFields: readonly string[],
    numericFields: readonly string[],
    stringFields: readonly string[],
    sortFields: readonly string[],
  ): FacetIndex {
    const index = new FacetIndex([], [], [], sortFields);
    index.size = parts.size;
    index.ids = parts.ids;
    index.active = parts.active;
    for (const [g, bit] of parts.groups) index.groupBits.set(g, bit);
    index.masks = parts.masks;
    for (const f of codedFields) index.codes.set(f, CodeColumn.fromParts(parts.codes.get(f)!, parts.size));
    for (const f of numericFields) {
      const col = new NumberColumn();
      col.data = parts.numbers.get(f)!;
      index.numbers.set(f, col);
    }
    for (const f of stringFields) index.strings.set(f, StringColumn.fromParts(parts.strings.get(f)!));
    for (const f of sortFields) {
      const order = parts.orders.get(f);
      if (order?.length === parts.size) index.orders.set(f, order);
    }
    if (parts.words) index.frequent = new FrequentWords(parts.words);
    return index;
  }

  /**
   * Makes the sort orders missing (after a full load or from an older snapshot), one field at a
   * time with `pause` between fields so a caller can let other work run.
   */
  async sortOrders(pause: () => Promise<void> = async () => {}): Promise<void> {
    for (const f of this.sortFields) {
      if (this.orders.has(f)) continue;
      await pause();
      this.orders.set(f, this.sortedDocs(f));
    }
    this.unsorted.clear();
  }

  /** True when every sort field has its order. */
  get sorted(): boolean {
    return this.sortFields.every((f) => this.orders.has(f));
  }

  /** Every document in the order of a sort field, made from scratch. */
  private sortedDocs(field: string): Int32Array<ArrayBuffer> {
    const numbers = this.numbers.get(field);
    if (!numbers) {
      const docs = new Int32Array(this.size);
      for (let i = 0; i < docs.length; i++) docs[i] = i;
      return docs.sort(this.orderOf(field));
    }
    // Numbers: rank each value among the distinct values (a native sort), then place documents by
    // rank in document order (a counting sort): far cheaper than a comparator sort at a million.
    const n = this.size;
    const data = grown(numbers.data, n);
    const present = new Float64Array(n);
    let m = 0;
    for (let d = 0; d < n; d++) if (!Number.isNaN(data[d])) present[m++] = data[d];
    const distinct = present.subarray(0, m).sort();
    let k = 0;
    for (let i = 0; i < m; i++) if (i === 0 || distinct[i] !== distinct[k - 1]) distinct[k++] = distinct[i];
    const rank = new Int32Array(n);
    const starts = new Int32Array(k + 2);
    for (let d = 0; d < n; d++) {
      const v = data[d];
      let r = k;
      if (!Number.isNaN(v)) {
        let lo = 0;
        let hi = k - 1;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (distinct[mid] < v) lo = mid + 1;
          else hi = mid;
        }
        r = lo;
      }
      rank[d] = r;
      starts[r + 1]++;
    }
    for (let r = 0; r <= k; r++) starts[r + 1] += starts[r];
    const docs = new Int32Array(n);
    for (let d = 0; d < n; d++) docs[starts[rank[d]]++] = d;
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
  private resort(): void {
    for (const step of this.resortSteps()) step();
  }

  /**
   * The steps of resort(), one per sort order: at a million assets each takes milliseconds, all
   * together over a hundred. The orders are right once every step ran.
   */
  private resortSteps(): (() => void)[] {
    if (this.unsorted.size === 0) return [];
    const changed = Int32Array.from(this.unsorted);
    this.unsorted.clear();
    const mark = new Uint8Array(this.size);
    for (const d of changed) mark[d] = 1;
    return [...this.orders.keys()].map((field) => () => {
      const order = this.orders.get(field)!;
      const cmp = this.orderOf(field);
      // New documents are not in the order yet: they always need a place.
      if (order.length === this.size && stillInOrder(order, mark, cmp)) return;
      const moved = changed.slice().sort(cmp);
      const kept = new Int32Array(order.length);
      let n = 0;
      for (let i = 0; i < order.length; i++) if (!mark[order[i]]) kept[n++] = order[i];
      // Each moved document goes where a binary search puts it: O(log n) comparisons each, so
      // texts decoded on reading (file names) are read only that often.
      const next = new Int32Array(this.size);
      let w = 0;
      let from = 0;
      for (const m of moved) {
        let lo = from;
        let hi = n;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (cmp(kept[mid], m) < 0) lo = mid + 1;
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
  walkOrder(field: string, dir: 'asc' | 'desc', visit: (doc: number) => boolean): boolean {
    const order = this.orders.get(field);
    if (!order || this.unsorted.size > 0) return false;
    const numbers = this.numbers.get(field);
    const strings = this.strings.get(field);
    const same = numbers
      ? (a: number, b: number) => numbers.get(a) === numbers.get(b)
      : (a: number, b: number) => strings!.get(a) === strings!.get(b);
    let end = order.length;
    if (numbers) while (end > 0 && Number.isNaN(numbers.get(order[end - 1]))) end--;
    if (dir === 'desc') {
      for (let i = end - 1; i >= 0; i--) if (!visit(order[i])) return true;
    } else {
      for (let i = 0; i < end;) {
        let j = i + 1;
        while (j < end && same(order[i], order[j])) j++;
        for (let k = j - 1; k >= i; k--) if (!visit(order[k])) return true;
        i = j;
      }
    }
    for (let i = order.length - 1; i >= end; i--) if (!visit(order[i])) return true;
    return true;
  }

  /** Document number of an asset id, or -1. */
  docOf(id: number): number {
    let lo = 0;
    let hi = this.size - 1;
    const ids = this.ids;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid];
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Maps ascending asset ids to ascending document numbers, dropping unknown ones. */
  docsOf(ids: ArrayLike<number>): Int32Array {
    const acc = new Int32Array(ids.length);
    let n = 0;
    let lo = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      let hi = this.size - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if (this.ids[mid] < id) lo = mid + 1;
        else hi = mid - 1;
      }
      if (lo < this.size && this.ids[lo] === id) acc[n++] = lo;
    }
    return acc.subarray(0, n);
  }

  private grow(min: number): void {
    if (min <= this.ids.length) return;
    const cap = Math.max(min, this.ids.length * 2);
    const ids = new Int32Array(cap);
    ids.set(this.ids);
    this.ids = ids;
    const active = new Uint8Array(cap);
    active.set(this.active);
    this.active = active;
    this.masks = this.masks.map((m) => {
      const next = new Uint32Array(cap);
      next.set(m);
      return next;
    });
  }

  private groupBit(name: string): number {
    let bit = this.groupBits.get(name);
    if (bit === undefined) {
      bit = this.groupBits.size;
      this.groupBits.set(name, bit);
      if (bit >> 5 >= this.masks.length) this.masks.push(new Uint32Array(this.ids.length));
    }
    return bit;
  }

  /**
   * Adds or replaces one asset; the coded values of a new one count after pack(). Answers false
   * when the asset is new and its id is below the highest indexed id (the order could not be kept):
   * the caller then rebuilds the index.
   */
  put(row: IndexRow): boolean {
    let doc = this.docOf(row.id);
    if (doc === -1) {
      if (this.size > 0 && row.id < this.ids[this.size - 1]) return false;
      doc = this.size;
      this.grow(doc + 1);
      this.ids[doc] = row.id;
      this.size++;
      for (const [f, col] of this.codes) col.push(row.codes[f] ?? []);
    } else for (const [f, col] of this.codes) col.set(doc, row.codes[f] ?? []);
    this.active[doc] = row.active ? 1 : 0;
    for (const m of this.masks) m[doc] = 0;
    for (const g of row.access) {
      const bit = this.groupBit(g);
      this.masks[bit >> 5][doc] |= 1 << (bit & 31);
    }
    for (const [f, col] of this.numbers) col.set(doc, row.numbers[f] ?? null);
    for (const [f, col] of this.strings) col.set(doc, row.strings[f] ?? '');
    if (this.orders.size > 0) this.unsorted.add(doc);
    this.version++;
    return true;
  }

  /** Makes the coded values and sort places of assets added or changed since the last packing count. */
  pack(): void {
    for (const col of this.codes.values()) col.pack();
    this.resort();
  }

  /**
   * pack() a column and a sort order at a time, with `pause` between them, so that other work (the
   * event loop) runs meanwhile; no search may read the index until it ends.
   */
  async packGradually(pause: () => Promise<void>): Promise<void> {
    for (const col of this.codes.values()) {
      col.pack();
      await pause();
    }
    for (const step of this.resortSteps()) {
      step();
      await pause();
    }
  }

  /** Folds the documents set after packing into every column, a column at a time (before a snapshot). */
  async fold(pause: () => Promise<void>): Promise<void> {
    for (const col of this.codes.values()) {
      col.fold();
      await pause();
    }
  }

  deactivate(id: number): void {
    const doc = this.docOf(id);
    if (doc === -1) return;
    this.active[doc] = 0;
    this.version++;
  }

  /** Masks of a caller's groups, one per 32-group word, as the access rule makes them. */
  callerMasks(groups: readonly string[], rule: AccessRule): Uint32Array {
    return rule.groupMask(groups, (g) => this.groupBits.get(g), this.masks.length);
  }

  visible(doc: number, caller: Uint32Array): boolean {
    if (this.active[doc] === 0) return false;
    for (let w = 0; w < caller.length; w++) if ((this.masks[w][doc] & caller[w]) !== 0) return true;
    return false;
  }

  /** Active documents the caller may see, from `docs` (ascending) or from all. */
  visibleDocs(caller: Uint32Array, docs?: Int32Array): Int32Array {
    const n = docs ? docs.length : this.size;
    const acc = new Int32Array(n);
    let k = 0;
    if (caller.length === 1) {
      const m = this.masks[0];
      const c = caller[0];
      const active = this.active;
      for (let i = 0; i < n; i++) {
        const d = docs ? docs[i] : i;
        if (active[d] !== 0 && (m[d] & c) !== 0) acc[k++] = d;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const d = docs ? docs[i] : i;
        if (this.visible(d, caller)) acc[k++] = d;
      }
    }
    return acc.subarray(0, k);
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
    if (!mark[order[i]]) continue;
    if (i > 0 && cmp(order[i - 1], order[i]) > 0) return false;
    if (i + 1 < order.length && cmp(order[i], order[i + 1]) > 0) return false;
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

/** Sorted-array set operations on ascending document numbers. */
export function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const acc = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
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
    if (j >= b.length || (i < a.length && a[i] < b[j])) acc[k++] = a[i++]!;
    else if (i >= a.length || b[j] < a[i]) acc[k++] = b[j++]!;
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
    const x = a[i];
    while (j < b.length && b[j] < x) j++;
    if (j >= b.length || b[j] !== x) acc[k++] = x;
  }
  return acc.subarray(0, k);
}

/** The first index of an ascending list whose entry is not below `key` (its length when none). */
export function lowerBound<T extends number | string>(sorted: ArrayLike<T>, key: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
