import { popcount } from '@vitrine/search-engine';
import { NEAR_COPY_DISTANCE, sameAspect } from './signature.ts';
import { nextTurn } from '../db/turn.ts';

/** A signed picture as the duplicates report groups it. */
export interface NearCopyItem {
  id: number;
  /** The 64-bit perceptual hash as 16 hex digits. */
  phash: string;
  aspect: number;
}

/** How long the grouping holds the event loop before it lets other work run (ms). */
const SLICE_MS = 10;

/** Inner steps between two looks at the clock. */
const STEPS_PER_LOOK = 4096;

/** Bits `from` to `to` (exclusive, bit 0 the lowest) of the 64-bit value `hi`:`lo`. */
function bitsOf(hi: number, lo: number, from: number, to: number): number {
  const mask = (1 << (to - from)) - 1;
  if (to <= 32) return (lo >>> from) & mask;
  if (from >= 32) return (hi >>> (from - 32)) & mask;
  return ((lo >>> from) | (hi << (32 - from))) & mask;
}

/**
 * The hash's 64 bits cut into `count` chunks of about equal width. Two hashes within
 * NEAR_COPY_DISTANCE differ in at most ⌊NEAR_COPY_DISTANCE / count⌋ bits of one of them.
 */
const chunksOf = (count: number): [number, number][] =>
  Array.from({ length: count }, (_, k) => [Math.floor((k * 64) / count), Math.floor(((k + 1) * 64) / count)]);

/**
 * How many chunks serve `n` pictures best. Fewer chunks are wider: more flips to look up per chunk,
 * in larger tables that miss the processor's caches, but emptier entries. More chunks are narrower:
 * few lookups, fuller entries, more pictures to compare. Timed on random hashes on a 2-core machine
 * (ms for 3 / 4 / 5 chunks): 5,000 pictures 286 / 120 / 22, 20,000 338 / 234 / 50, 100,000
 * 1,415 / 1,556 / 902, 300,000 4,406 / 11,049 / 8,113.
 */
const chunkCount = (n: number): number => (n <= 150_000 ? 5 : 3);

/** The masks of every flip of at most `flips` of `width` bits (0 first: the value itself). */
function flipMasks(width: number, flips: number): Int32Array {
  const masks: number[] = [0];
  const add = (mask: number, from: number, left: number) => {
    for (let b = from; b < width; b++) {
      masks.push(mask | (1 << b));
      if (left > 1) add(mask | (1 << b), b + 1, left - 1);
    }
  };
  if (flips > 0) add(0, 0, flips);
  return Int32Array.from(masks);
}

/**
 * The groups of near copies among signed pictures: the connected sets of `nearCopies` pairs
 * (signature.ts), of two or more, each in id order, the groups by their first id.
 *
 * Pairs are found through chunks of the hash (a multi-index): two hashes within NEAR_COPY_DISTANCE
 * of each other differ in at most ⌊NEAR_COPY_DISTANCE / chunks⌋ bits of one chunk, so each picture
 * is compared only with those whose chunk lies that close to its own, looked up in a table per
 * chunk. At a million random hashes (three chunks) that is some 700 lookups and a few hundred
 * comparisons per picture, where comparing every pair is half a million million. The work is cut into
 * slices of about SLICE_MS with a turn of the event loop between them, so a report over a large
 * catalogue never holds other requests up.
 */
export async function nearCopyGroups(
  items: readonly NearCopyItem[],
  /** The number of chunks, 3 to 5 (else as chunkCount chooses): for tests of each layout. */
  chunkCountAsked?: number,
): Promise<number[][]> {
  const n = items.length;
  let sliceStart = performance.now();
  let steps = 0;
  /** Whether the slice is over; the clock is read every STEPS_PER_LOOK steps (it costs more than a step). */
  const due = () => {
    if (++steps < STEPS_PER_LOOK) return false;
    steps = 0;
    return performance.now() - sliceStart >= SLICE_MS;
  };
  /** Lets other work run (awaited only when `due`: an await per step would cost more than the step). */
  const turn = async () => {
    await nextTurn();
    sliceStart = performance.now();
  };

  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const phash = items[i]!.phash;
    hi[i] = Number.parseInt(phash.slice(0, 8), 16) >>> 0;
    lo[i] = Number.parseInt(phash.slice(8, 16), 16) >>> 0;
    if (due()) await turn();
  }
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[i] !== r) {
      const next = parent[i]!;
      parent[i] = r;
      i = next;
    }
    return r;
  };

  const chunks = chunksOf(chunkCountAsked ?? chunkCount(n));
  const flips = Math.floor(NEAR_COPY_DISTANCE / chunks.length);
  const keys = new Int32Array(n);
  const members = new Int32Array(n);
  for (const [from, to] of chunks) {
    // The pictures by their chunk's value: those of value v are members[starts[v]] to members[starts[v + 1] - 1].
    const starts = new Int32Array((1 << (to - from)) + 1);
    for (let i = 0; i < n; i++) {
      keys[i] = bitsOf(hi[i]!, lo[i]!, from, to);
      starts[keys[i]! + 1]!++;
      if (due()) await turn();
    }
    for (let v = 1; v < starts.length; v++) starts[v]! += starts[v - 1]!;
    const fill = starts.slice(0, -1);
    for (let i = 0; i < n; i++) {
      members[fill[keys[i]!]!++] = i;
      if (due()) await turn();
    }
    if (due()) await turn();
    const masks = flipMasks(to - from, flips);
    // In order of the chunk's value, so that the lookups of one picture and the next fall close together.
    for (let place = 0; place < n; place++) {
      const i = members[place]!;
      const key = keys[i]!;
      const hiI = hi[i]!;
      const loI = lo[i]!;
      for (const mask of masks) {
        const v = key ^ mask;
        const end = starts[v + 1]!;
        for (let x = starts[v]!; x < end; x++) {
          const j = members[x]!;
          // Each pair once (from its lower place).
          if (j <= i) continue;
          if (popcount((hiI ^ hi[j]!) >>> 0) + popcount((loI ^ lo[j]!) >>> 0) > NEAR_COPY_DISTANCE) continue;
          if (!sameAspect(items[i]!.aspect, items[j]!.aspect)) continue;
          const ri = find(i);
          const rj = find(j);
          if (ri !== rj) parent[ri] = rj;
        }
      }
      if (due()) await turn();
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = find(i);
    const group = groups.get(r);
    if (group) group.push(items[i]!.id);
    else groups.set(r, [items[i]!.id]);
    if (due()) await turn();
  }
  return [...groups.values()]
    .filter((g) => g.length > 1)
    .map((g) => g.sort((x, y) => x - y))
    .sort((x, y) => x[0]! - y[0]!);
}
