// A picture's visual signature (issue #52): a 64-bit DCT perceptual hash, its dominant colours in
// OKLab with their shares, and its aspect ratio. Pure maths on pixels the image adapter hands in
// (adapters/media.ts `SignaturePixels`), so it is tested without decoding anything.
import { linearChannel, oklabOfLinear } from '@vitrine/contract/oklab';
import { HASH_SIDE, type SignaturePixels } from '../adapters/media.ts';

/**
 * Raised when the way signatures are made changes; `vitrine import` makes older ones again.
 * 2: part hashes (PART_WINDOWS).
 */
export const SIGNATURE_VERSION = 2;

/** At most this many dominant colours are kept. */
export const MAX_COLOURS = 5;

/**
 * The largest hash distance (of 64 bits) at which two pictures of the same aspect are copies of one
 * another: measured by bench/alike on the demo's photos and their variants (bench/README.md
 * "bench/alike").
 */
export const NEAR_COPY_DISTANCE = 8;
/** Two aspects are the same within this share of the larger (rounding of the pictures' sizes, a 3 % crop). */
export const ASPECT_TOLERANCE = 0.05;

/** One dominant colour: OKLab coordinates and the share of the picture it covers (0–1). */
export interface DominantColour {
  l: number;
  a: number;
  b: number;
  share: number;
}

export interface Signature {
  /** 64 bits as 16 hexadecimal digits. */
  phash: string;
  /**
   * The perceptual hashes of the picture's parts (PART_WINDOWS, in that order), each as `phash`:
   * a picture cut from this one lies near one of them (decision 0271). Empty for signatures made
   * before them (version 1).
   */
  parts: string[];
  colours: DominantColour[];
  /** Width over height. */
  aspect: number;
  version: number;
}

/** cos((2x+1)uπ / 2N) for the low frequencies u < 9 the hash keeps, u-major (u × HASH_SIDE + x). */
const cosines = Float64Array.from({ length: 9 * HASH_SIDE }, (_, i) => {
  const u = Math.floor(i / HASH_SIDE);
  const x = i % HASH_SIDE;
  return Math.cos(((2 * x + 1) * u * Math.PI) / (2 * HASH_SIDE));
});

/**
 * The DCT-II of the square at the frequencies 1–8 in both directions (the 8 × 8 lowest without the
 * DC row and column, which say only how bright the picture is). Typed arrays throughout: a picture
 * takes 46 of them (its hash and its parts').
 */
function lowFrequencies(grey: Uint8Array): Float64Array {
  const n = HASH_SIDE;
  if (grey.length !== n * n) throw new Error(`a hash needs ${n * n} grey pixels, not ${grey.length}`);
  // Rows first: for each row y, the coefficients u = 1..8 (at y × 8 + u − 1).
  const rows = new Float64Array(n * 8);
  for (let y = 0; y < n; y++) {
    for (let u = 1; u <= 8; u++) {
      let s = 0;
      for (let x = 0; x < n; x++) s += grey[y * n + x]! * cosines[u * n + x]!;
      rows[y * 8 + u - 1] = s;
    }
  }
  const out = new Float64Array(64);
  for (let v = 1; v <= 8; v++) {
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let y = 0; y < n; y++) s += rows[y * 8 + u]! * cosines[v * n + y]!;
      out[(v - 1) * 8 + u] = s;
    }
  }
  return out;
}

/** The perceptual hash: a bit per low frequency, set where the coefficient is above their median. */
export function perceptualHash(grey: Uint8Array): string {
  const coeffs = lowFrequencies(grey);
  const sorted = Float64Array.from(coeffs).sort();
  const median = (sorted[31]! + sorted[32]!) / 2;
  // The first coefficient is the highest bit; 32 bits a half.
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 32; i++) hi = (hi << 1) | (coeffs[i]! > median ? 1 : 0);
  for (let i = 32; i < 64; i++) lo = (lo << 1) | (coeffs[i]! > median ? 1 : 0);
  const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
  return hex(hi) + hex(lo);
}

/** How many of the 64 bits two hashes differ in. */
export function hashDistance(x: string, y: string): number {
  let d = BigInt(`0x${x}`) ^ BigInt(`0x${y}`);
  let n = 0;
  while (d > 0n) {
    n += Number(d & 1n);
    d >>= 1n;
  }
  return n;
}

const LINEAR = Array.from({ length: 256 }, (_, i) => linearChannel(i));

/** sRGB bytes → OKLab (@vitrine/contract/oklab), the channels through a table: called per pixel. */
export function oklab(r: number, g: number, b: number): [number, number, number] {
  return oklabOfLinear(LINEAR[r] ?? 0, LINEAR[g] ?? 0, LINEAR[b] ?? 0);
}

type Lab = [number, number, number];
const dist2 = (p: Lab, q: Lab) => (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2;
const round3 = (x: number) => Math.round(x * 1000) / 1000 || 0;

/**
 * Up to MAX_COLOURS dominant colours: median cut in OKLab for the starting centres (deterministic,
 * no random seeds), then a few rounds of k-means; the largest share first.
 */
export function dominantColours(rgb: Uint8Array): DominantColour[] {
  const points: Lab[] = [];
  for (let i = 0; i + 2 < rgb.length; i += 3) points.push(oklab(rgb[i] ?? 0, rgb[i + 1] ?? 0, rgb[i + 2] ?? 0));
  if (points.length === 0) return [];
  // Median cut: split the box with the widest spread along that axis until there are enough boxes.
  let boxes: Lab[][] = [points];
  while (boxes.length < MAX_COLOURS) {
    let best = -1;
    let bestAxis = 0;
    let bestSpread = 0;
    boxes.forEach((box, i) => {
      for (let axis = 0; axis < 3; axis++) {
        let lo = Infinity;
        let hi = -Infinity;
        for (const p of box) {
          lo = Math.min(lo, p[axis] ?? 0);
          hi = Math.max(hi, p[axis] ?? 0);
        }
        if (box.length > 1 && hi - lo > bestSpread) {
          bestSpread = hi - lo;
          best = i;
          bestAxis = axis;
        }
      }
    });
    // One flat colour (or nothing left to split) needs no more boxes.
    if (best < 0 || bestSpread < 1e-3) break;
    const box = [...(boxes[best] ?? [])].sort((p, q) => (p[bestAxis] ?? 0) - (q[bestAxis] ?? 0));
    const half = box.length >> 1;
    boxes = [...boxes.slice(0, best), box.slice(0, half), box.slice(half), ...boxes.slice(best + 1)];
  }
  const mean = (box: Lab[]): Lab => {
    const s: Lab = [0, 0, 0];
    for (const p of box) for (let k = 0; k < 3; k++) s[k] = (s[k] ?? 0) + (p[k] ?? 0);
    return [s[0] / box.length, s[1] / box.length, s[2] / box.length];
  };
  let centres = boxes.map(mean);
  let counts: number[] = [];
  for (let round = 0; round < 8; round++) {
    const sums = centres.map((): Lab => [0, 0, 0]);
    counts = centres.map(() => 0);
    for (const p of points) {
      let k = 0;
      let d = Infinity;
      centres.forEach((c, i) => {
        const di = dist2(p, c);
        if (di < d) {
          d = di;
          k = i;
        }
      });
      const s = sums[k] ?? [0, 0, 0];
      s[0] += p[0];
      s[1] += p[1];
      s[2] += p[2];
      counts[k] = (counts[k] ?? 0) + 1;
    }
    const next = centres.map((c, i): Lab => {
      const n = counts[i] ?? 0;
      const s = sums[i] ?? [0, 0, 0];
      return n === 0 ? c : [s[0] / n, s[1] / n, s[2] / n];
    });
    const moved = next.some((c, i) => dist2(c, centres[i] ?? c) > 1e-8);
    centres = next;
    if (!moved) break;
  }
  return centres
    .map((c, i) => ({ l: round3(c[0]), a: round3(c[1]), b: round3(c[2]), share: (counts[i] ?? 0) / points.length }))
    .filter((c) => c.share > 0)
    .sort((x, y) => y.share - x.share || x.l - y.l)
    .map((c) => ({ ...c, share: round3(c.share) }));
}

/** A window of a picture: [left, top, width, height] as shares of its width and height. */
export type PartWindow = readonly [number, number, number, number];

/**
 * The windows part hashes are taken of (bench/README.md "bench/alike", decision 0271): the nine
 * squares and six strips of two thirds (corners, edges, centre), and the strips of a half to nine
 * tenths along each side and through the middle, upright and lying. A crop that keeps more than
 * half of the picture lies close to one of them.
 */
export const PART_WINDOWS: readonly PartWindow[] = (() => {
  const windows: PartWindow[] = [];
  const at = (size: number) => [0, (1 - size) / 2, 1 - size];
  const third = 2 / 3;
  for (const x of at(third)) for (const y of at(third)) windows.push([x, y, third, third]);
  for (const x of at(third)) windows.push([x, 0, third, 1]);
  for (const y of at(third)) windows.push([0, y, 1, third]);
  for (const size of [0.5, 0.6, 0.7, 0.8, 0.9])
    for (const a of at(size)) windows.push([a, 0, size, 1], [0, a, 1, size]);
  return windows;
})();

/**
 * For a side of `n` output pixels averaging [from, from + length) of the source: per output pixel
 * the first source pixel it covers, and per output pixel WEIGHTS weights of the source pixels from
 * there on (the share of each it covers; a window of at least half the picture shrunk into the
 * signature's 100 px box spans at most four source pixels per output pixel).
 */
const WEIGHTS = 5;
function areaWeights(
  from: number,
  length: number,
  n: number,
  /** The source's side: no weight falls beyond it. */
  side: number,
): { first: Int32Array; weights: Float64Array } {
  const step = length / n;
  const first = new Int32Array(n);
  const weights = new Float64Array(n * WEIGHTS);
  for (let i = 0; i < n; i++) {
    const a = from + i * step;
    const b = Math.min(side, a + step);
    first[i] = Math.floor(a);
    for (let k = 0, p = first[i]!; p < b && k < WEIGHTS; k++, p++)
      weights[i * WEIGHTS + k] = (Math.min(b, p + 1) - Math.max(a, p)) / step;
  }
  return { first, weights };
}

/** A window of a greyscale picture squeezed to HASH_SIDE × HASH_SIDE by area averaging. */
export function windowPixels(
  grey: Uint8Array,
  width: number,
  height: number,
  [left, top, w, h]: PartWindow,
): Uint8Array {
  const n = HASH_SIDE;
  if ((w * width) / n > WEIGHTS - 1 || (h * height) / n > WEIGHTS - 1)
    throw new Error(`a window of ${Math.round(w * width)} × ${Math.round(h * height)} pixels is too large to squeeze`);
  const cols = areaWeights(left * width, w * width, n, width);
  const rows = areaWeights(top * height, h * height, n, height);
  const { first: colFirst, weights: colWeights } = cols;
  const { first: rowFirst, weights: rowWeights } = rows;
  // Columns first, for the source rows the window covers (per row the n averages), then rows.
  const y0 = rowFirst[0]!;
  const y1 = Math.min(height, Math.ceil((top + h) * height));
  const across = new Float64Array((y1 - y0 + 1) * n);
  for (let y = y0; y < y1; y++) {
    const row = y * width;
    const at = (y - y0) * n;
    for (let i = 0; i < n; i++) {
      let s = 0;
      const x = row + colFirst[i]!;
      for (let k = 0; k < WEIGHTS; k++) {
        const wk = colWeights[i * WEIGHTS + k]!;
        if (wk === 0) break;
        s += grey[x + k]! * wk;
      }
      across[at + i] = s;
    }
  }
  const out = new Uint8Array(n * n);
  for (let j = 0; j < n; j++) {
    const from = (rowFirst[j]! - y0) * n;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let k = 0; k < WEIGHTS; k++) {
        const wk = rowWeights[j * WEIGHTS + k]!;
        if (wk === 0) break;
        s += across[from + k * n + i]! * wk;
      }
      out[j * n + i] = Math.round(s);
    }
  }
  return out;
}

/** The part hashes of a picture (PART_WINDOWS) from its shrunk greyscale pixels. */
export function partHashes(small: SignaturePixels['small']): string[] {
  return PART_WINDOWS.map((window) => perceptualHash(windowPixels(small.grey, small.width, small.height, window)));
}

/** The signature of a picture's pixels. */
export function signatureOf(px: SignaturePixels): Signature {
  return {
    phash: perceptualHash(px.grey),
    parts: partHashes(px.small),
    colours: dominantColours(px.rgb),
    aspect: px.width / px.height,
    version: SIGNATURE_VERSION,
  };
}

/** Whether two aspects are the same within ASPECT_TOLERANCE. */
export const sameAspect = (x: number, y: number) => Math.abs(x - y) <= ASPECT_TOLERANCE * Math.max(x, y);

/** Whether two signatures are of copies of one picture (the duplicates report's near copies). */
export const nearCopies = (x: Pick<Signature, 'phash' | 'aspect'>, y: Pick<Signature, 'phash' | 'aspect'>) =>
  sameAspect(x.aspect, y.aspect) && hashDistance(x.phash, y.phash) <= NEAR_COPY_DISTANCE;
