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
} as const;

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

/**
 * The documents that look like `doc` (itself left out) within SIMILAR.cutoff, among those `keep`
 * accepts. The hash distance alone is a lower bound of the whole, so most documents cost a popcount.
 */
export function similarTo(col: VisualColumn, doc: number, keep: (d: number) => boolean): Closeness {
  const docs: number[] = [];
  const distance: number[] = [];
  if (!col.has(doc)) return { docs: new Int32Array(0), distance: new Float32Array(0) };
  const hi = col.hi[doc]!;
  const lo = col.lo[doc]!;
  const { aspect, hi: his, lo: los } = col;
  const n = col.length;
  const cutoff = SIMILAR.cutoff;
  for (let d = 0; d < n; d++) {
    if (aspect[d] === 0 || d === doc) continue;
    const bits = popcount((his[d]! ^ hi) >>> 0) + popcount((los[d]! ^ lo) >>> 0);
    if (bits > cutoff || !keep(d)) continue;
    const total = similarDistance(col, doc, d);
    if (total <= cutoff) {
      docs.push(d);
      distance.push(total);
    }
  }
  return { docs: Int32Array.from(docs), distance: Float32Array.from(distance) };
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
