import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COLOUR,
  nearColour,
  oklabOf,
  parseHexColour,
  partHashesOf,
  SIMILAR,
  similarDistance,
  similarTo,
} from './alike.ts';
import { FacetIndex } from './facet-index/facet-index.ts';
import { VisualColumn, type VisualSignature } from './facet-index/visual-column.ts';
import { pageByCloseness } from './paging.ts';
import { parseQuery, positiveVisualAtoms, QuerySyntaxError } from './query.ts';
import { ScratchPool } from './scratch.ts';
import { readSnapshot, writeSnapshot, type SnapshotShape } from './snapshot.ts';

const lab = (hex: string): [number, number, number, number] => {
  const [l, a, b] = parseHexColour(hex)!;
  return [l, a, b, 1];
};
const sig = (phash: string, colours: [number, number, number, number][], aspect = 1.5): VisualSignature => ({
  phash,
  colours,
  aspect,
});
/** A hash `bits` bits away from all zeros. */
const away = (bits: number): string => (bits === 0 ? 0n : (1n << BigInt(bits)) - 1n).toString(16).padStart(16, '0');

describe('similar: and colour: in the query language (issue #52)', () => {
  const none = () => false;

  it('parses similar:<id> and colour:/color: with #rrggbb or #rgb in any case, alone or with words', () => {
    expect(parseQuery('similar:42', none)).toEqual({ kind: 'similar', id: 42 });
    const red = parseQuery('COLOUR:#FF0000', none);
    expect(red).toMatchObject({ kind: 'colour', hex: '#ff0000' });
    expect(parseQuery('color:#f00', none)).toEqual(red);
    const tree = parseQuery('rose similar:7 -colour:#00f', none);
    expect(tree.kind).toBe('and');
    // The negated colour narrows but does not rank.
    expect(positiveVisualAtoms(tree)).toEqual([{ kind: 'similar', id: 7 }]);
  });

  it('refuses a colour that is not #rrggbb or #rgb, and a similar: that is not an asset id, saying how to write it', () => {
    for (const q of ['colour:red', 'colour:#ff00', 'colour:#gg0000', 'colour:ff0000', 'color:#ff00001']) {
      expect(() => parseQuery(q, none), q).toThrow(QuerySyntaxError);
    }
    expect(() => parseQuery('colour:red', none)).toThrow(/'#' and 6 or 3 hexadecimal digits, e.g. 'colour:#ff0000'/);
    expect(() => parseQuery('similar:rose', none)).toThrow(/needs an asset id/);
    expect(() => parseQuery('similar:99999999999', none)).toThrow(QuerySyntaxError);
  });

  it('turns hexadecimal colours into OKLab as the signatures are made (white, black, red)', () => {
    expect(parseHexColour('#fff')?.[0]).toBeCloseTo(1, 3);
    expect(parseHexColour('#000000')?.[0]).toBeCloseTo(0, 3);
    const [l, a, b] = oklabOf(255, 0, 0);
    expect([l, a, b].map((x) => Math.round(x * 1000) / 1000)).toEqual([0.628, 0.225, 0.126]);
  });
});

describe('visual closeness over the index (issue #52)', () => {
  const col = new VisualColumn();
  const red = lab('#ff0000');
  const blue = lab('#0000ff');
  col.set(0, sig(away(0), [red]));
  col.set(1, sig(away(2), [red])); // a re-encoded copy
  col.set(2, sig(away(30), [blue])); // another picture
  col.set(3, sig(away(1), [red], 0.5)); // a near hash, another aspect
  // The same red in part of it, a hash 10 bits away: not similar, yet red.
  col.set(
    5,
    sig(away(10), [
      [...red.slice(0, 3), 0.3] as [number, number, number, number],
      [...blue.slice(0, 3), 0.7] as [number, number, number, number],
    ]),
  );

  it('keeps 26 bytes a document: the hash in 8, four colours in 16, the aspect in 2', () => {
    expect(col.bytes / col.length).toBe(26);
    expect(col.has(4)).toBe(false);
    // Full arrays (as read from a snapshot) grow by a quarter, not double.
    const full = VisualColumn.fromParts(col.parts(col.length));
    full.set(full.length, sig(away(1), [red]));
    expect(full.length).toBe(Math.ceil(col.length * 1.25));
    expect(col.has(5)).toBe(true);
  });

  it('finds the copy of a picture first, leaves itself and far pictures out, and drops the cut-off', async () => {
    const found = await similarTo(col, 0, () => true);
    expect(Array.from(found.docs)).toEqual([1]);
    expect(found.distance[0]).toBeCloseTo(2, 1);
    // The same hash at another aspect is farther than the cut-off.
    expect(similarDistance(col, 0, 3)).toBeGreaterThan(SIMILAR.cutoff);
    // A picture whose closeness the caller may not learn is not even measured.
    expect(Array.from((await similarTo(col, 0, (d) => d !== 1)).docs)).toEqual([]);
    // Without a signature there is nothing to compare.
    expect((await similarTo(col, 4, () => true)).docs.length).toBe(0);
  });

  it("lists pictures near one of the asked picture's part hashes after its copies, by their bits (decision 0271)", async () => {
    const parts = [0x0123_4567_89ab_cdefn, 0xfedc_ba98_7654_3210n];
    const hex = (x: bigint) => x.toString(16).padStart(16, '0');
    const flip = (x: bigint, bits: number[]) => bits.reduce((acc, b) => acc ^ (1n << BigInt(b)), x);
    const crops = new VisualColumn();
    crops.set(0, sig(away(0), [red]));
    crops.set(1, sig(away(2), [red])); // a copy
    // 10 bits from the second part, four in each of two 16-bit chunks: the farthest the tier takes.
    crops.set(2, sig(hex(flip(parts[1]!, [0, 20, 21, 22, 23, 33, 34, 35, 36, 63])), [red], 0.7));
    crops.set(3, sig(hex(flip(parts[0]!, [1, 2])), [red], 2)); // 2 bits from the first part
    // 11 bits from the first part: no longer a part of it.
    crops.set(4, sig(hex(flip(parts[0]!, [0, 1, 2, 16, 17, 18, 32, 33, 34, 48, 49])), [red]));
    crops.set(5, sig(hex(flip(parts[0]!, [7])), [red])); // near a part, but not for this caller
    // 10 bits again, 3 + 3 + 4 + 0 over the chunks: two chunks only just within the slack.
    crops.set(6, sig(hex(flip(parts[1]!, [1, 2, 3, 17, 18, 19, 32, 33, 34, 35])), [red], 0.7));
    const found = await similarTo(crops, 0, (d) => d !== 5, partHashesOf(parts.map(hex)));
    expect(Array.from(found.docs)).toEqual([1, 2, 3, 6]);
    // The copy by its own distance; the parts after every copy, the nearer part first.
    expect(found.distance[0]).toBeLessThanOrEqual(SIMILAR.cutoff);
    expect(Array.from(found.distance.subarray(1))).toEqual([
      SIMILAR.cutoff + 11,
      SIMILAR.cutoff + 3,
      SIMILAR.cutoff + 11,
    ]);
    // Without parts (a signature of version 1) only the copy.
    expect(Array.from((await similarTo(crops, 0, () => true)).docs)).toEqual([1]);
    // Malformed part hashes are left out.
    expect(partHashesOf(['xyz', hex(parts[0]!)]).hi.length).toBe(1);
  });

  it('finds by part hashes exactly what comparing every part with every picture finds', async () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const parts = Array.from({ length: 45 }, () => [next(), next()] as const);
    const many = new VisualColumn();
    const hexOf = (hi: number, lo: number) => hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
    const bitsOf = (x: number) => x.toString(2).replaceAll('0', '').length;
    for (let d = 0; d < 3000; d++) {
      let hi = next();
      let lo = next();
      if (d % 3 === 0) {
        // Planted: a part with 6–14 random bits flipped (either side of the tier's 10).
        const [ph, pl] = parts[d % 45]!;
        hi = ph;
        lo = pl;
        for (let k = 0; k < 6 + (d % 9); k++) {
          const bit = next() % 64;
          if (bit < 32) hi = (hi ^ (1 << bit)) >>> 0;
          else lo = (lo ^ (1 << (bit - 32))) >>> 0;
        }
      }
      many.set(d, sig(hexOf(hi, lo), [red], 1 + (d % 5) / 10));
    }
    const found = await similarTo(many, 0, () => true, partHashesOf(parts.map(([h, l]) => hexOf(h, l))));
    const expected: number[] = [];
    for (let d = 1; d < 3000; d++) {
      if (similarDistance(many, 0, d) <= SIMILAR.cutoff) {
        expected.push(d);
        continue;
      }
      const best = Math.min(
        ...parts.map(([h, l]) => bitsOf((many.hi[d]! ^ h) >>> 0) + bitsOf((many.lo[d]! ^ l) >>> 0)),
      );
      if (best <= SIMILAR.partDistance) expected.push(d);
    }
    expect(expected.length).toBeGreaterThan(300);
    expect(Array.from(found.docs)).toEqual(expected);
  });

  it('finds pictures by a dominant colour, the colour that fills a picture before the same in part of one', () => {
    const reds = nearColour(col, parseHexColour('#ff0000')!);
    expect(Array.from(reds.docs)).toEqual([0, 1, 3, 5]);
    expect(reds.distance[0]).toBeLessThan(reds.distance[3]!);
    expect(reds.distance[3]).toBeLessThanOrEqual(COLOUR.cutoff);
    const blues = nearColour(col, parseHexColour('#00f')!);
    expect(Array.from(blues.docs)).toEqual([2, 5]);
    expect(nearColour(col, parseHexColour('#00ff00')!).docs.length).toBe(0);
  });

  it('pages results by closeness, closest first (ties newest first), or farthest first when asked', () => {
    const pool = new ScratchPool();
    const scratch = pool.lease();
    const reds = nearColour(col, parseHexColour('#ff0000')!);
    const terms = [{ closeness: reds, cutoff: COLOUR.cutoff }];
    const result = Int32Array.from([0, 1, 3, 5]);
    const all = Array.from(pageByCloseness(result, terms, 'desc', 0, 10, scratch));
    // 0, 1 and 3 are the same red filling the picture: newest first; 5 is red in a corner.
    expect(all).toEqual([3, 1, 0, 5]);
    expect(Array.from(pageByCloseness(result, terms, 'desc', 1, 2, scratch))).toEqual([1, 0]);
    expect(Array.from(pageByCloseness(result, terms, 'asc', 0, 1, scratch))).toEqual([5]);
    scratch.release();
  });
});

describe('visual signatures in the index and its snapshot (issue #52)', () => {
  it('puts, replaces and removes a signature with its asset, and a snapshot keeps them', async () => {
    const index = new FacetIndex([], [], ['filename'], []);
    const row = (id: number, visual: VisualSignature | null) => ({
      id,
      active: true,
      access: ['public'],
      codes: {},
      numbers: {},
      strings: { filename: `${id}.jpg` },
      visual,
    });
    index.put(row(10, sig(away(3), [lab('#00ff00')], 2)));
    index.put(row(20, null));
    index.put(row(30, sig(away(0), [lab('#ff0000')])));
    index.pack();
    expect([0, 1, 2].map((d) => index.visual.has(d))).toEqual([true, false, true]);
    index.put(row(30, null));
    expect(index.visual.has(2)).toBe(false);
    index.put(row(20, sig(away(5), [lab('#0000ff')])));

    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-visual-'));
    try {
      const file = path.join(dir, 'snapshot');
      const shape: SnapshotShape = { coded: [], numeric: [], strings: ['filename'], sort: [], text: '' };
      const meta = { instance: 'x', generation: 1, languages: ['en'], catalogueLanguages: ['en'] };
      await writeSnapshot(file, index, shape, meta);
      const read = await readSnapshot(file, () => shape);
      if (read.status !== 'loaded') throw new Error(read.status);
      const v = read.index.visual;
      expect([0, 1, 2].map((d) => v.has(d))).toEqual([true, true, false]);
      expect(Array.from(nearColour(v, parseHexColour('#0000ff')!).docs)).toEqual([1]);
      expect(Array.from(v.hi.subarray(0, 2))).toEqual(Array.from(index.visual.hi.subarray(0, 2)));
      expect(Array.from(v.lo.subarray(0, 2))).toEqual([7, 31]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
