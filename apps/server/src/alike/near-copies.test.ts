import { describe, expect, it } from 'vitest';
import { nearCopyGroups, type NearCopyItem } from './near-copies.ts';
import { hashDistance, NEAR_COPY_DISTANCE, nearCopies } from './signature.ts';

const bits = (n: number) => ((1n << BigInt(n)) - 1n).toString(16).padStart(16, '0');

/** The groups by comparing every pair: what the chunked lookup must find. */
function everyPair(items: readonly NearCopyItem[]): number[][] {
  const parent = items.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++) if (nearCopies(items[i]!, items[j]!)) parent[find(i)] = find(j);
  const groups = new Map<number, number[]>();
  items.forEach((s, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), s.id]));
  return [...groups.values()]
    .filter((g) => g.length > 1)
    .map((g) => g.sort((x, y) => x - y))
    .sort((x, y) => x[0]! - y[0]!);
}

/** A seeded generator, so that a failure can be run again. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Pictures with random hashes, and copies of some of them: 0 to 10 bits flipped anywhere in the
 * hash (at the threshold, and just past it), of the same aspect or one 3 % or 8 % off.
 */
function catalogue(n: number, seed: number): NearCopyItem[] {
  const next = random(seed);
  const hex = () =>
    Math.floor(next() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
  const aspects = [1.5, 4 / 3, 16 / 9, 1, 2 / 3];
  const items: NearCopyItem[] = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    phash: hex() + hex(),
    aspect: aspects[i % aspects.length]!,
  }));
  for (let c = 0; c < n / 4; c++) {
    const from = items[Math.floor(next() * n)]!;
    const to = items[Math.floor(next() * n)]!;
    let h = BigInt(`0x${from.phash}`);
    const flips = Math.floor(next() * 11);
    for (let f = 0; f < flips; f++) h ^= 1n << BigInt(Math.floor(next() * 64));
    to.phash = h.toString(16).padStart(16, '0');
    to.aspect = from.aspect * [1, 1.03, 1.08][Math.floor(next() * 3)]!;
  }
  return items;
}

describe('groups of near copies (the duplicates report, issue #52)', () => {
  it('joins pictures within the threshold of the same aspect, through each other, and no others', async () => {
    expect(hashDistance(bits(0), bits(NEAR_COPY_DISTANCE))).toBe(NEAR_COPY_DISTANCE);
    const groups = await nearCopyGroups([
      { id: 1, phash: bits(0), aspect: 1.5 },
      { id: 2, phash: bits(NEAR_COPY_DISTANCE), aspect: 1.52 },
      // Too far from 1, near 2: in the group through 2.
      { id: 4, phash: bits(NEAR_COPY_DISTANCE + 4), aspect: 1.5 },
      { id: 3, phash: 'ffff000000000000', aspect: 1.5 },
      // The same hash as 1, another shape.
      { id: 5, phash: bits(0), aspect: 1 },
    ]);
    expect(groups).toEqual([[1, 2, 4]]);
  });

  it('finds pairs whose differing bits all lie in one chunk or spread over every chunk', async () => {
    // Eight bits at the top, in the middle and spread one per eighth: each still one pair.
    const spread = [0, 8, 16, 24, 32, 40, 48, 56].reduce((h, b) => h | (1n << BigInt(b)), 0n);
    for (const other of ['ff00000000000000', '0000000ff0000000', spread.toString(16).padStart(16, '0')]) {
      for (const chunks of [3, 4, 5]) {
        expect(
          await nearCopyGroups(
            [
              { id: 1, phash: '0000000000000000', aspect: 1.5 },
              { id: 2, phash: other, aspect: 1.5 },
            ],
            chunks,
          ),
        ).toEqual([[1, 2]]);
      }
    }
  });

  it.each([3, 4, 5])('with %i chunks finds exactly the groups of comparing every pair', async (chunks) => {
    for (const seed of [1, 2]) {
      const items = catalogue(800, seed * 7919 + chunks);
      const expected = everyPair(items);
      expect(expected.length).toBeGreaterThan(30);
      expect(await nearCopyGroups(items, chunks)).toEqual(expected);
    }
  });

  it('lets other work run while it groups many pictures', async () => {
    const items = catalogue(60_000, 11);
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    try {
      await nearCopyGroups(items, 3);
    } finally {
      clearInterval(ticking);
    }
    expect(turns).toBeGreaterThan(2);
  });
});
