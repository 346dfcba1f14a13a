// A picture's visual signature (issue #52): a 64-bit DCT perceptual hash, its dominant colours in
// OKLab with their shares, and its aspect ratio. Pure maths on pixels the image adapter hands in
// (adapters/media.ts `SignaturePixels`), so it is tested without decoding anything.
import { linearChannel, oklabOfLinear } from '@vitrine/contract/oklab';
import { HASH_SIDE, type SignaturePixels } from '../adapters/media.ts';

/** Raised when the way signatures are made changes; `vitrine import` makes older ones again. */
export const SIGNATURE_VERSION = 1;

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
  colours: DominantColour[];
  /** Width over height. */
  aspect: number;
  version: number;
}

/** cos((2x+1)uπ / 2N) for the low frequencies u < 9 the hash keeps. */
const cosines: number[][] = Array.from({ length: 9 }, (_, u) =>
  Array.from({ length: HASH_SIDE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * HASH_SIDE))),
);

/**
 * The DCT-II of the square at the frequencies 1–8 in both directions (the 8 × 8 lowest without the
 * DC row and column, which say only how bright the picture is).
 */
function lowFrequencies(grey: Uint8Array): number[] {
  const n = HASH_SIDE;
  if (grey.length !== n * n) throw new Error(`a hash needs ${n * n} grey pixels, not ${grey.length}`);
  // Rows first: for each row y, the coefficients u = 1..8.
  const rows: number[][] = [];
  for (let y = 0; y < n; y++) {
    const r: number[] = [];
    for (let u = 1; u <= 8; u++) {
      let s = 0;
      const c = cosines[u] ?? [];
      for (let x = 0; x < n; x++) s += (grey[y * n + x] ?? 0) * (c[x] ?? 0);
      r.push(s);
    }
    rows.push(r);
  }
  const out: number[] = [];
  for (let v = 1; v <= 8; v++) {
    const c = cosines[v] ?? [];
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let y = 0; y < n; y++) s += (rows[y]?.[u] ?? 0) * (c[y] ?? 0);
      out.push(s);
    }
  }
  return out;
}

/** The perceptual hash: a bit per low frequency, set where the coefficient is above their median. */
export function perceptualHash(grey: Uint8Array): string {
  const coeffs = lowFrequencies(grey);
  const sorted = [...coeffs].sort((x, y) => x - y);
  const median = ((sorted[31] ?? 0) + (sorted[32] ?? 0)) / 2;
  let bits = 0n;
  for (const c of coeffs) bits = (bits << 1n) | (c > median ? 1n : 0n);
  return bits.toString(16).padStart(16, '0');
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

/** The signature of a picture's pixels. */
export function signatureOf(px: SignaturePixels): Signature {
  return {
    phash: perceptualHash(px.grey),
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
