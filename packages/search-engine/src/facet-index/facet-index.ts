/**
 * The in-memory part of the search engine: per asset the facet values as integer codes, numbers for
 * ranges and sorting, access groups as bit masks. Counting facets over typed arrays of matched
 * documents is what makes faceted search fast at a million assets (FACTS.md); the database answers
 * only the full-text part. Documents are kept in ascending asset id order, so sorted id lists from
 * the text index map onto sorted document numbers. Its parts: value dictionaries and packed codes
 * with facet counting and value filters (code-column.ts), numbers and texts (value-columns.ts), sort
 * orders (sort-orders.ts) and set operations on document lists (doc-sets.ts); this module keeps the
 * documents, their access masks and visibility.
 */

import { FrequentWords, type WordPostings } from '../frequent-words.ts';
import type { AccessRule } from '../ports.ts';
import { CodeColumn, type CodeColumnParts } from './code-column.ts';
import { SortOrders } from './sort-orders.ts';
import { NumberColumn, StringColumn, type Numbers, type StringColumnParts } from './value-columns.ts';
import { VisualColumn, type VisualColumnParts, type VisualSignature } from './visual-column.ts';

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

/** One asset as the index keeps it. */
export interface IndexRow {
  id: number;
  active: boolean;
  access: string[];
  codes: Record<string, string[]>;
  numbers: Record<string, number | null>;
  strings: Record<string, string>;
  /** Its visual signature, when it has one (similar:, colour:). */
  visual?: VisualSignature | null;
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
  /** Visual signatures (visual-column.ts). */
  visual: VisualColumnParts;
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
  /** Visual signatures per document (similar:, colour:). */
  visual = new VisualColumn();
  /** Access groups: bit g of masks[g >> 5][doc] is set when the document is visible to group g. */
  private readonly groupBits = new Map<string, number>();
  private masks: Uint32Array<ArrayBuffer>[] = [];
  /** The sort orders of the sort fields (sort-orders.ts). */
  private readonly order: SortOrders;
  /** Postings of the catalogue's frequent words, for a text index dear to ask for them. */
  frequent: FrequentWords | undefined;

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
    this.order = new SortOrders(sortFields, this.numbers, this.strings);
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
      orders: this.order.parts(),
      words: this.frequent?.words,
      visual: this.visual.parts(size),
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
    index.order.restore(parts.orders, parts.size);
    if (parts.words) index.frequent = new FrequentWords(parts.words);
    index.visual = VisualColumn.fromParts(parts.visual);
    return index;
  }

  /**
   * Makes the sort orders missing (after a full load or from an older snapshot), one field at a
   * time with `pause` between fields so a caller can let other work run.
   */
  /**
   * Makes the sort orders missing (after a full load or from an older snapshot), one field at a
   * time with `pause` between fields so a caller can let other work run.
   */
  async sortOrders(pause: () => Promise<void> = async () => {}): Promise<void> {
    await this.order.sortAll(this.size, pause);
  }

  /** True when every sort field has its order. */
  get sorted(): boolean {
    return this.order.sorted;
  }

  /**
   * Visits documents in the order of a sort field until `visit` answers false: ascending or
   * descending by value, documents without a value last either way, and equal values newest
   * (highest asset id) first. Answers false when the field has no order (yet).
   */
  walkOrder(field: string, dir: 'asc' | 'desc', visit: (doc: number) => boolean): boolean {
    return this.order.walk(field, dir, visit);
  }

  /** The asset id of a document. */
  idOf(doc: number): number {
    const id = this.ids[doc];
    if (id === undefined || doc >= this.size) throw new RangeError(`The index has no document ${doc}.`);
    return id;
  }

  /** Document number of an asset id, or -1. */
  docOf(id: number): number {
    let lo = 0;
    let hi = this.size - 1;
    const ids = this.ids;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid]!;
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
      const id = ids[i]!;
      // Galloping from the last one found: a common word's ids lie a few documents apart, and a
      // search over the whole index for each took 10 ms for a fifth of a million.
      let hi = lo;
      for (let leap = 1; hi < this.size && this.ids[hi]! < id; leap *= 2) {
        lo = hi + 1;
        hi += leap;
      }
      hi = Math.min(hi, this.size - 1);
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if (this.ids[mid]! < id) lo = mid + 1;
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
    // A document whose sort values stay keeps its places: putting every sort order right looks for
    // it in each (a pass over ten million documents per order took some 100 ms).
    const before = doc === -1 ? undefined : this.sortValues(doc);
    if (doc === -1) {
      if (this.size > 0 && row.id < this.ids[this.size - 1]!) return false;
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
      this.masks[bit >> 5]![doc]! |= 1 << (bit & 31);
    }
    for (const [f, col] of this.numbers) col.set(doc, row.numbers[f] ?? null);
    for (const [f, col] of this.strings) col.set(doc, row.strings[f] ?? '');
    this.visual.set(doc, row.visual);
    const after = before && this.sortValues(doc);
    if (!before || !after || before.some((v, i) => !Object.is(v, after[i]))) this.order.changed(doc);
    this.version++;
    return true;
  }

  /** A document's values of the sort fields, as the sort orders compare them. */
  private sortValues(doc: number): (number | string)[] {
    return this.order.fields.map((f) => this.numbers.get(f)?.get(doc) ?? this.strings.get(f)?.get(doc) ?? '');
  }

  /**
   * Replaces coded columns of an indexed asset, the rest of it kept (a change of some fields whose
   * new values the writer knows); the values count after pack(). False when the asset is not indexed.
   */
  setCodes(id: number, codes: Record<string, readonly string[]>): boolean {
    const doc = this.docOf(id);
    if (doc === -1) return false;
    for (const [f, values] of Object.entries(codes)) this.codes.get(f)?.set(doc, values);
    this.version++;
    return true;
  }

  /** Makes the coded values and sort places of assets added or changed since the last packing count. */
  pack(): void {
    for (const col of this.codes.values()) col.pack();
    this.order.resort(this.size);
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
    for (const step of this.order.resortSteps(this.size)) {
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
    for (let w = 0; w < caller.length; w++) if ((this.masks[w]![doc]! & caller[w]!) !== 0) return true;
    return false;
  }

  /**
   * Active documents the caller may see among all, in parts of `part` documents with `step` between
   * them: one pass over a million documents held the event loop 20–50 ms on a busy machine.
   */
  async visibleDocsInSteps(caller: Uint32Array, step: () => Promise<void>, part = 1 << 18): Promise<Int32Array> {
    const acc = new Int32Array(this.size);
    let k = 0;
    for (let from = 0; from < this.size; from += part) {
      if (from > 0) await step();
      k = this.visibleInto(caller, undefined, from, Math.min(this.size, from + part), acc, k);
    }
    return acc.subarray(0, k);
  }

  /** Active documents the caller may see, from `docs` (ascending) or from all. */
  visibleDocs(caller: Uint32Array, docs?: Int32Array): Int32Array {
    const n = docs ? docs.length : this.size;
    const acc = new Int32Array(n);
    return acc.subarray(0, this.visibleInto(caller, docs, 0, n, acc, 0));
  }

  /**
   * Writes the visible documents of positions `from` to `to` (of `docs`, or documents themselves)
   * into `acc` from `k`; answers where the next one goes.
   */
  private visibleInto(
    caller: Uint32Array,
    docs: Int32Array | undefined,
    from: number,
    to: number,
    acc: Int32Array,
    k: number,
  ): number {
    if (caller.length === 1) {
      const m = this.masks[0]!;
      const c = caller[0]!;
      const active = this.active;
      // Without a branch (as `passing`): active is 0 or 1; v | -v has its sign bit when v is not 0.
      for (let i = from; i < to; i++) {
        const d = docs ? docs[i]! : i;
        const v = m[d]! & c;
        acc[k] = d;
        k += active[d]! & ((v | -v) >>> 31);
      }
    } else {
      for (let i = from; i < to; i++) {
        const d = docs ? docs[i]! : i;
        if (this.visible(d, caller)) acc[k++] = d;
      }
    }
    return k;
  }
}
