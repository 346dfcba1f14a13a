/**
 * Closeness of visual signatures (issue #52, decision 0264): `similar:<id>` and `colour:#rrggbb`
 * in the query language. Both walk the signatures of the whole index (typed arrays, no allocation
 * per document) and answer the documents within a cut-off, ascending, with their distance.
 */
import { linearChannel, oklabOfLinear } from '@vitrine/contract/oklab';
import { popcount, VISUAL_COLOURS, lOf, abOf, lnAspectOf, type VisualColumn } from './facet-index/visual-column.ts';

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

/**
 * How "similar" weighs its parts, in hash bits: the hash distance (0–64), plus ASPECT_WEIGHT per
 * unit of |ln(aspect ratio)| (a 5 % different aspect ≈ 1 bit), plus COLOUR_WEIGHT per OKLab unit of
 * the colour distance (share-weighted nearest colours both ways: 0.05 ≈ 2 bits). Measured by
 * bench/alike (bench/README.md "bench/alike", decision 0264).
 */
export const SIMILAR = {
  aspectWeight: 20,
  colourWeight: 40,
  /** Pictures farther than this are not similar: an asset page then shows none rather than noise. */
  cutoff: 16,
  /**
   * The second tier, after those within the cut-off: pictures whose hash lies within this many bits
   * of one of the asked picture's part hashes show a part of it (a crop of more than 30 %), ranked
   * after every copy by those bits (decision 0271).
   */
  partDistance: 10,
} as const;

/** Where the part tier's distances end: what a similar: term's distances are shares of in ranking. */
export const SIMILAR_RANGE = SIMILAR.cutoff + 1 + SIMILAR.partDistance + 1;

/**
 * How "colour" scores a picture: its best dominant colour's OKLab distance to the asked one plus
 * SHARE_WEIGHT × the part of the picture that colour does not cover, so a colour that fills the
 * picture outranks the same colour in a corner. Pictures scoring above `cutoff` do not match.
 */
export const COLOUR = {
  shareWeight: 0.1,
  cutoff: 0.15,
} as const;

/** Documents within a cut-off, ascending, and the distance of each. */
export interface Closeness {
  docs: Int32Array;
  distance: Float32Array;
}

/** sRGB bytes → OKLab, as the host's signatures are made (@vitrine/contract/oklab). */
export function oklabOf(r: number, g: number, b: number): [number, number, number] {
  return oklabOfLinear(linearChannel(r), linearChannel(g), linearChannel(b));
}

/** `#rrggbb` or `#rgb` (any case, the `#` optional) as OKLab, or undefined when it is not one. */
export function parseHexColour(text: string): [number, number, number] | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text);
  if (!m) return undefined;
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return oklabOf(
    Number.parseInt(hex.slice(0, 2), 16),
    Number.parseInt(hex.slice(2, 4), 16),
    Number.parseInt(hex.slice(4, 6), 16),
  );
}

/** A document's colours as OKLab triples and shares (empty slots left out). */
function coloursOf(col: VisualColumn, doc: number): { lab: number[]; share: number[] } {
  const lab: number[] = [];
  const share: number[] = [];
  const at = doc * VISUAL_COLOURS * 4;
  for (let i = 0; i < VISUAL_COLOURS; i++) {
    const k = at + i * 4;
    const s = col.colours[k + 3]!;
    if (s === 0) break;
    lab.push(lOf(col.colours[k]!), abOf(col.colours[k + 1]!), abOf(col.colours[k + 2]!));
    share.push(s / 255);
  }
  return { lab, share };
}

/** Share-weighted mean distance from each colour of `x` to its nearest colour of `y`. */
function towards(x: { lab: number[]; share: number[] }, y: { lab: number[] }): number {
  let sum = 0;
  let weight = 0;
  for (let i = 0; i < x.share.length; i++) {
    let best = Infinity;
    for (let j = 0; j < y.lab.length; j += 3) {
      const d = Math.hypot(
        x.lab[i * 3]! - y.lab[j]!,
        x.lab[i * 3 + 1]! - y.lab[j + 1]!,
        x.lab[i * 3 + 2]! - y.lab[j + 2]!,
      );
      if (d < best) best = d;
    }
    sum += x.share[i]! * best;
    weight += x.share[i]!;
  }
  return weight > 0 && Number.isFinite(sum) ? sum / weight : 0.5;
}

/** The colour distance of two documents' dominant colours (symmetric, 0 for the same colours). */
export function colourDistance(col: VisualColumn, x: number, y: number): number {
  const cx = coloursOf(col, x);
  const cy = coloursOf(col, y);
  if (cx.share.length === 0 || cy.share.length === 0) return 0.5;
  return (towards(cx, cy) + towards(cy, cx)) / 2;
}

/** The "similar" distance of two documents with signatures (see SIMILAR). */
export function similarDistance(col: VisualColumn, x: number, y: number): number {
  const bits = popcount((col.hi[x]! ^ col.hi[y]!) >>> 0) + popcount((col.lo[x]! ^ col.lo[y]!) >>> 0);
  const aspect = Math.abs(lnAspectOf(col.aspect[x]!) - lnAspectOf(col.aspect[y]!));
  return bits + SIMILAR.aspectWeight * aspect + SIMILAR.colourWeight * colourDistance(col, x, y);
}

/** Part hashes of an asked picture as 32-bit halves (at most MAX_PARTS of them). */
export interface PartHashes {
  hi: Uint32Array;
  lo: Uint32Array;
}

/** Hexadecimal part hashes (the host's) as halves; malformed ones and those beyond MAX_PARTS are left out. */
export function partHashesOf(hex: readonly string[]): PartHashes {
  const good = hex.filter((h) => /^[0-9a-f]{16}$/i.test(h)).slice(0, MAX_PARTS);
  return {
    hi: Uint32Array.from(good, (h) => Number.parseInt(h.slice(0, 8), 16)),
    lo: Uint32Array.from(good, (h) => Number.parseInt(h.slice(8), 16)),
  };
}

/**
 * Two hashes within SIMILAR.partDistance bits agree within CHUNK_SLACK bits on at least two of their
 * four 16-bit chunks (were three chunks CHUNK_SLACK + 1 or more apart, the hashes would be farther).
 * Per chunk two tables (parts 0–31 and 32–63) say, for every value, which parts have that chunk
 * within the slack: a document costs eight table reads, and only parts named for two of its chunks
 * (some 0.1 % of pairs of unrelated hashes at a slack of 3) are compared whole.
 */
const CHUNK_SLACK = Math.floor(SIMILAR.partDistance / 3);
/** Part hashes a walk compares (two words of table bits). */
const MAX_PARTS = 64;

/** The 16-bit masks with at most CHUNK_SLACK bits set (697 at a slack of 3). */
const NEAR_MASKS: Uint16Array = Uint16Array.from({ length: 1 << 16 }, (_, v) => v).filter(
  (v) => popcount(v) <= CHUNK_SLACK,
);

/** Per chunk (four) and word of parts (two), the table of parts near each chunk value (see CHUNK_SLACK). */
function chunkTables(parts: PartHashes): Uint32Array[] {
  const tables = Array.from({ length: 8 }, () => new Uint32Array(1 << 16));
  for (let p = 0; p < parts.hi.length; p++) {
    const bit = 1 << (p & 31);
    const word = p >> 5;
    const chunks = [parts.hi[p]! >>> 16, parts.hi[p]! & 0xffff, parts.lo[p]! >>> 16, parts.lo[p]! & 0xffff];
    for (let c = 0; c < 4; c++) {
      const table = tables[c * 2 + word]!;
      for (let m = 0; m < NEAR_MASKS.length; m++) {
        const at = chunks[c]! ^ NEAR_MASKS[m]!;
        table[at] = table[at]! | bit;
      }
    }
  }
  return tables;
}

/** The parts (bits of one word) named by at least two of four chunks' table entries. */
const twoOfFour = (a: number, b: number, c: number, d: number): number =>
  ((a & (b | c | d)) | (b & (c | d)) | (c & d)) >>> 0;

/** Documents walked between turns of the event loop (see similarTo). */
const WALK_SLICE = 1 << 17;

/** Documents within a cut-off as the walks collect them (ascending documents). */
interface Found {
  docs: number[];
  distance: number[];
}

/** The documents within SIMILAR.cutoff of `doc` from `from` to `to` (see similarTo). */
function copiesIn(col: VisualColumn, doc: number, keep: (d: number) => boolean, from: number, to: number, out: Found) {
  const hi = col.hi[doc]!;
  const lo = col.lo[doc]!;
  const { aspect, hi: his, lo: los } = col;
  const cutoff = SIMILAR.cutoff;
  for (let d = from; d < to; d++) {
    if (aspect[d] === 0 || d === doc) continue;
    const bits = popcount((his[d]! ^ hi) >>> 0) + popcount((los[d]! ^ lo) >>> 0);
    if (bits > cutoff || !keep(d)) continue;
    const total = similarDistance(col, doc, d);
    if (total <= cutoff) {
      out.docs.push(d);
      out.distance.push(total);
    }
  }
}

/**
 * The documents from `from` to `to` within SIMILAR.partDistance of one of `parts` (`tables` their
 * chunk tables), but `doc` and the copies already found (`skip`, ascending, from `at` on):
 * distance cutoff + 1 + those bits.
 */
function partsIn(
  col: VisualColumn,
  doc: number,
  keep: (d: number) => boolean,
  parts: PartHashes,
  tables: Uint32Array[],
  from: number,
  to: number,
  skip: readonly number[],
  out: Found,
): void {
  const { aspect, hi: his, lo: los } = col;
  const { hi: pHi, lo: pLo } = parts;
  const [a0, b0, a1, b1, a2, b2, a3, b3] = tables as [
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
  ];
  const { cutoff, partDistance } = SIMILAR;
  let at = 0;
  while (at < skip.length && skip[at]! < from) at++;
  for (let d = from; d < to; d++) {
    const h = his[d]!;
    const l = los[d]!;
    const c0 = h >>> 16;
    const c1 = h & 0xffff;
    const c2 = l >>> 16;
    const c3 = l & 0xffff;
    const low = twoOfFour(a0[c0]!, a1[c1]!, a2[c2]!, a3[c3]!);
    const high = twoOfFour(b0[c0]!, b1[c1]!, b2[c2]!, b3[c3]!);
    if ((low | high) === 0 || aspect[d] === 0 || d === doc) continue;
    while (at < skip.length && skip[at]! < d) at++;
    if (at < skip.length && skip[at] === d) continue;
    let best = partDistance + 1;
    for (let base = 0; base < 64; base += 32) {
      let named = base === 0 ? low : high;
      while (named !== 0) {
        const p = base + 31 - Math.clz32(named & -named);
        named &= named - 1;
        const b = popcount((h ^ pHi[p]!) >>> 0) + popcount((l ^ pLo[p]!) >>> 0);
        if (b < best) best = b;
      }
    }
    if (best <= partDistance && keep(d)) {
      out.docs.push(d);
      out.distance.push(cutoff + 1 + best);
    }
  }
}

/**
 * The documents that look like `doc` (itself left out), among those `keep` accepts: within
 * SIMILAR.cutoff, and — given the asked picture's part hashes — those whose hash lies within
 * SIMILAR.partDistance of one of its parts (distance cutoff + 1 + those bits), ranked after every
 * copy. The hash distance alone is a lower bound of the whole, so most documents cost a popcount
 * (and, with parts, eight table reads). `step` lets other work run between slices of the walks.
 */
export async function similarTo(
  col: VisualColumn,
  doc: number,
  keep: (d: number) => boolean,
  parts?: PartHashes,
  step: () => Promise<void> = async () => {},
): Promise<Closeness> {
  if (!col.has(doc)) return { docs: new Int32Array(0), distance: new Float32Array(0) };
  const n = col.length;
  const copies: Found = { docs: [], distance: [] };
  for (let from = 0; from < n; from += WALK_SLICE) {
    if (from > 0) await step();
    copiesIn(col, doc, keep, from, Math.min(n, from + WALK_SLICE), copies);
  }
  if (!parts || parts.hi.length === 0) {
    return { docs: Int32Array.from(copies.docs), distance: Float32Array.from(copies.distance) };
  }
  const tables = chunkTables(parts);
  const cut: Found = { docs: [], distance: [] };
  for (let from = 0; from < n; from += WALK_SLICE) {
    await step();
    partsIn(col, doc, keep, parts, tables, from, Math.min(n, from + WALK_SLICE), copies.docs, cut);
  }
  // Both ascending: merged into one list of documents.
  const total = copies.docs.length + cut.docs.length;
  const docs = new Int32Array(total);
  const distance = new Float32Array(total);
  for (let i = 0, j = 0, k = 0; k < total; k++) {
    const fromCopies = j >= cut.docs.length || (i < copies.docs.length && copies.docs[i]! < cut.docs[j]!);
    docs[k] = fromCopies ? copies.docs[i]! : cut.docs[j]!;
    distance[k] = fromCopies ? copies.distance[i++]! : cut.distance[j++]!;
  }
  return { docs, distance };
}

/** The documents with a dominant colour near `lab` within COLOUR.cutoff (see COLOUR). */
export function nearColour(col: VisualColumn, lab: readonly [number, number, number]): Closeness {
  const docs: number[] = [];
  const distance: number[] = [];
  const { colours, aspect } = col;
  const n = col.length;
  const { shareWeight, cutoff } = COLOUR;
  // Per byte value its squared distance to the target's coordinate, and per share byte its part of
  // the score: the loop then only adds table entries (all in byte units).
  const sq = (target: number) => Float64Array.from({ length: 256 }, (_, v) => (v - target) ** 2);
  const dL = sq(lab[0] * 255);
  const dA = sq((lab[1] + 0.5) * 255);
  const dB = sq((lab[2] + 0.5) * 255);
  const partOf = Float64Array.from({ length: 256 }, (_, s) => shareWeight * (255 - s));
  const limit = cutoff * 255;
  for (let d = 0; d < n; d++) {
    if (aspect[d] === 0) continue;
    // The best score so far (at most the cut-off): a colour whose share's part alone reaches it, or
    // whose squared distance exceeds what is left, is passed over without a square root (most are).
    let best = limit + 1e-9;
    const at = d * VISUAL_COLOURS * 4;
    for (let i = 0; i < VISUAL_COLOURS; i++) {
      const k = at + i * 4;
      const s = colours[k + 3]!;
      if (s === 0) break;
      const part = partOf[s]!;
      const left = best - part;
      if (left <= 0) break;
      const d2 = dL[colours[k]!]! + dA[colours[k + 1]!]! + dB[colours[k + 2]!]!;
      if (d2 >= left * left) continue;
      best = Math.sqrt(d2) + part;
    }
    if (best <= limit) {
      docs.push(d);
      distance.push(best / 255);
    }
  }
  return { docs: Int32Array.from(docs), distance: Float32Array.from(distance) };
}
