/**
 * One coded field of the index: its value dictionary (value ↔ code) and per document its codes,
 * packed in typed arrays (one code per document while no document has two values, else offsets
 * and codes), with documents changed after packing kept loose until the next merge. Counting a
 * facet (count) and filtering by values (has) read the packed arrays directly: they run once per
 * matched document and make no allocation.
 */
import { lowerBound } from './doc-sets.ts';

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

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
  /**
   * A single-valued column's packed codes again in the narrowest array that holds them (bytes
   * while it has fewer than 255 values), with the largest number for none: counting and filtering
   * read a quarter of the memory (at ten million documents 10 MB instead of 40 for a facet). None is
   * `narrowNone`, the number of values when it was made.
   */
  private narrow: Uint8Array | Uint16Array | null = null;
  private narrowNone = 0;
  /** The packed codes `narrow` was made from. */
  private narrowOf: Int32Array | null = null;
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
    this.narrowed();
  }

  /** Makes `narrow` from the packed codes, when they changed since it was made. */
  private narrowed(): void {
    const { codes } = this;
    if (codes === this.narrowOf) return;
    this.narrowOf = codes;
    this.narrow = null;
    const n = this.values.length;
    if (this.offsets !== null || codes.length === 0 || n >= 0xffff) return;
    const narrow = n < 0xff ? new Uint8Array(codes.length) : new Uint16Array(codes.length);
    // The first code not in use: later values get codes from n on, but never in these arrays.
    const none = n;
    for (let d = 0; d < codes.length; d++) {
      const c = codes[d]!;
      narrow[d] = c === NONE ? none : c;
    }
    this.narrow = narrow;
    this.narrowNone = none;
  }

  /** True when the pending documents have at most one value each. */
  private pendingSingle(): boolean {
    const p = this.pendingOffsets;
    for (let i = 1; i < p.length; i++) if (p[i]! - p[i - 1]! > 1) return false;
    return true;
  }

  private packPending(): void {
    const added = this.pendingOffsets.length - 1;
    if (this.offsets === null && this.pendingSingle()) {
      const codes = new Int32Array(this.packedCount + added);
      codes.set(this.codes);
      const p = this.pendingOffsets;
      for (let i = 0; i < added; i++) codes[this.packedCount + i] = p[i + 1]! > p[i]! ? this.pending[p[i]!]! : NONE;
      this.codes = codes;
    } else {
      const offsets = this.multiOffsets();
      const base = this.codes.length;
      const codes = new Int32Array(base + this.pending.length);
      codes.set(this.codes);
      codes.set(this.pending, base);
      const next = new Int32Array(this.packedCount + this.pendingOffsets.length);
      next.set(offsets.subarray(0, this.packedCount + 1));
      for (let i = 1; i < this.pendingOffsets.length; i++) next[this.packedCount + i] = base + this.pendingOffsets[i]!;
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
      if (this.codes[d] !== NONE) this.codes[k++] = this.codes[d]!;
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
    for (let d = 0; d < n; d++) if (offsets[d + 1]! - offsets[d]! > 1) return;
    const codes = new Int32Array(n);
    for (let d = 0; d < n; d++) codes[d] = offsets[d + 1]! > offsets[d]! ? this.codes[offsets[d]!]! : NONE;
    this.codes = codes;
    this.offsets = null;
  }

  /** Folds documents set after packing back into the packed arrays, so counting stays on the fast path. */
  private merge(): void {
    const n = this.packedCount;
    // A change of an asset sets every column of it: those whose values it kept need no new arrays
    // (copying the keywords of a million documents, 16 MB made anew, held the event loop 30–70 ms
    // after a change of 5,000 assets' ratings).
    const changed = this.looseSorted().filter((d) => d < n && !this.packedAs(d, this.loose.get(d)!));
    if (changed.length === 0) {
      this.loose.clear();
      this.looseDocs = undefined;
      return;
    }
    if (this.offsets === null && changed.every((d) => this.loose.get(d)!.length <= 1)) {
      const codes = this.codes.slice();
      for (const d of changed) {
        const vals = this.loose.get(d)!;
        codes[d] = vals.length > 0 ? vals[0]! : NONE;
      }
      this.codes = codes;
    } else {
      const oldOffsets = this.multiOffsets();
      const source = this.codes;
      let total = oldOffsets[n]!;
      for (const d of changed) total += this.loose.get(d)!.length - (oldOffsets[d + 1]! - oldOffsets[d]!);
      const codes = new Int32Array(total);
      const offsets = new Int32Array(n + 1);
      let k = 0;
      let from = 0;
      // Runs of unchanged documents are copied in one piece (a million documents in milliseconds).
      const copy = (to: number) => {
        const shift = k - oldOffsets[from]!;
        codes.set(source.subarray(oldOffsets[from], oldOffsets[to]), k);
        for (let d = from; d < to; d++) offsets[d + 1] = oldOffsets[d + 1]! + shift;
        k += oldOffsets[to]! - oldOffsets[from]!;
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
    this.narrowed();
  }

  /** True when the packed arrays hold exactly `codes` for document `d`. */
  private packedAs(d: number, codes: Int32Array): boolean {
    const offsets = this.offsets;
    if (offsets === null) {
      const c = d < this.codes.length ? this.codes[d]! : NONE;
      return codes.length === 0 ? c === NONE : codes.length === 1 && codes[0] === c;
    }
    const from = this.codes.length === 0 ? 0 : offsets[d]!;
    const to = this.codes.length === 0 ? 0 : offsets[d + 1]!;
    if (to - from !== codes.length) return false;
    for (let i = 0; i < codes.length; i++) if (this.codes[from + i] !== codes[i]) return false;
    return true;
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
    col.narrowed();
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
    const { offsets, codes, packedCount, narrow, narrowNone: none } = this;
    const loose = this.loose.size > 0 ? this.looseSorted() : EMPTY;
    if (loose.length === 0 && codes.length === 0) return;
    // Without later-set documents, one tight loop per form.
    if (loose.length === 0 && narrow !== null) return countNarrow(narrow, none, packedCount, docs, counts);
    if (loose.length === 0 && offsets !== null) return countMulti(offsets, codes, packedCount, docs, counts);
    let j = 0;
    let last = -1;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      if (loose.length > 0) {
        // Out of order (not from a match): find the place again.
        if (d < last) j = lowerBound(loose, d);
        last = d;
        while (j < loose.length && loose[j]! < d) j++;
        if (j < loose.length && loose[j] === d) {
          const vals = this.loose.get(d)!;
          for (let k = 0; k < vals.length; k++) counts[vals[k]!]!++;
          continue;
        }
      }
      if (d >= packedCount || codes.length === 0) continue;
      if (narrow !== null) {
        const c = narrow[d]!;
        if (c !== none) counts[c]!++;
      } else if (offsets === null) {
        const c = codes[d]!;
        if (c !== NONE) counts[c]!++;
      } else for (let k = offsets[d]!, end = offsets[d + 1]!; k < end; k++) counts[codes[k]!]!++;
    }
  }

  /**
   * The documents below `size` with one of the `wanted` codes, as a bit set (bit d of word d >>> 5):
   * a filter's documents, made in one pass over the packed arrays and kept while the index version
   * lives, so a search tests its matches against 1.25 MB at ten million documents instead of
   * reading the codes of each.
   */
  docsWith(wanted: Uint8Array, size: number): Uint32Array {
    const bits = new Uint32Array((size + 31) >>> 5);
    this.packedWith(wanted, bits, 0, Math.min(size, this.packedCount));
    return this.looseWith(wanted, bits, size);
  }

  /**
   * docsWith, a part of `part` documents at a time with `step` between them: one pass over ten
   * million documents of keywords held the event loop 50–70 ms.
   */
  async docsWithInSteps(
    wanted: Uint8Array,
    size: number,
    step: () => Promise<void>,
    part = 1 << 20,
  ): Promise<Uint32Array> {
    const bits = new Uint32Array((size + 31) >>> 5);
    const n = Math.min(size, this.packedCount);
    for (let from = 0; from < n; from += part) {
      if (from > 0) await step();
      this.packedWith(wanted, bits, from, Math.min(n, from + part));
    }
    return this.looseWith(wanted, bits, size);
  }

  /** Sets the bits of the packed documents `from` to `to` with one of the `wanted` codes. */
  private packedWith(wanted: Uint8Array, bits: Uint32Array, from: number, to: number): void {
    const { offsets, codes, narrow, narrowNone: none } = this;
    if (narrow !== null) {
      for (let d = from; d < to; d++) {
        const c = narrow[d]!;
        if (c !== none && wanted[c] === 1) bits[d >>> 5]! |= 1 << (d & 31);
      }
    } else if (codes.length > 0 && offsets === null) {
      for (let d = from; d < to; d++) {
        const c = codes[d]!;
        if (c !== NONE && wanted[c] === 1) bits[d >>> 5]! |= 1 << (d & 31);
      }
    } else if (codes.length > 0 && offsets !== null) {
      for (let d = from; d < to; d++) {
        for (let k = offsets[d]!, end = offsets[d + 1]!; k < end; k++) {
          if (wanted[codes[k]!] === 1) {
            bits[d >>> 5]! |= 1 << (d & 31);
            break;
          }
        }
      }
    }
  }

  /** Puts the documents set after packing (below `size`) right in `bits`: they have their own codes. */
  private looseWith(wanted: Uint8Array, bits: Uint32Array, size: number): Uint32Array {
    for (const [d, vals] of this.loose) {
      if (d >= size) continue;
      let found = false;
      for (let k = 0; k < vals.length && !found; k++) found = wanted[vals[k]!] === 1;
      if (found) bits[d >>> 5]! |= 1 << (d & 31);
      else bits[d >>> 5]! &= ~(1 << (d & 31));
    }
    return bits;
  }

  has(doc: number, wanted: Uint8Array): boolean {
    if (this.loose.size === 0 || !this.loose.has(doc)) {
      // Hot path of filtering: read the packed codes without making a subarray per document.
      if (doc >= this.packedCount || this.codes.length === 0) return false;
      const { offsets, codes } = this;
      if (offsets === null) return codes[doc] !== NONE && wanted[codes[doc]!] === 1;
      for (let k = offsets[doc]!, end = offsets[doc + 1]!; k < end; k++) if (wanted[codes[k]!]) return true;
      return false;
    }
    const vals = this.get(doc);
    for (let k = 0; k < vals.length; k++) if (wanted[vals[k]!]) return true;
    return false;
  }
}

/**
 * Counts of a narrow column: four tallies, one per document of each four, so an increment does not
 * wait for the one before (a facet of five values adds to the same count most of the time). None
 * (the highest code) has a slot of its own and is not read back.
 */
function countNarrow(
  codes: Uint8Array | Uint16Array,
  none: number,
  packed: number,
  docs: Int32Array,
  counts: Int32Array,
): void {
  const s = none + 1;
  const tally = new Int32Array(4 * s);
  const len = docs.length;
  let i = 0;
  for (; i + 4 <= len; i += 4) {
    const d0 = docs[i]!;
    const d1 = docs[i + 1]!;
    const d2 = docs[i + 2]!;
    const d3 = docs[i + 3]!;
    if (d0 < packed && d1 < packed && d2 < packed && d3 < packed) {
      tally[codes[d0]!]!++;
      tally[s + codes[d1]!]!++;
      tally[2 * s + codes[d2]!]!++;
      tally[3 * s + codes[d3]!]!++;
    } else for (const d of [d0, d1, d2, d3]) if (d < packed) tally[codes[d]!]!++;
  }
  for (; i < len; i++) {
    const d = docs[i]!;
    if (d < packed) tally[codes[d]!]!++;
  }
  for (let c = 0; c < none; c++) counts[c]! += tally[c]! + tally[s + c]! + tally[2 * s + c]! + tally[3 * s + c]!;
}

function countMulti(
  offsets: Int32Array,
  codes: Int32Array,
  packed: number,
  docs: Int32Array,
  counts: Int32Array,
): void {
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    if (d >= packed) continue;
    for (let k = offsets[d]!, end = offsets[d + 1]!; k < end; k++) counts[codes[k]!]!++;
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
