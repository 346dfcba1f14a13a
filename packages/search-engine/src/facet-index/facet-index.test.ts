import { describe, expect, it } from 'vitest';
import { markMissing } from '../engine-types.ts';
import { CodeColumn } from './code-column.ts';
import { bitSetOf, docsOfBitSet, intersect, subtract, union } from './doc-sets.ts';
import { FacetIndex, type IndexRow } from './facet-index.ts';
import { NumberColumn, StringColumn } from './value-columns.ts';

const row = (id: number, access: string[], tags: string[], size: number | null = null): IndexRow => ({
  id,
  active: true,
  access,
  codes: { tags },
  numbers: { size },
  strings: {},
});

describe('facet index (in-memory part of the search engine)', () => {
  it('counts packed and later-set values alike, each value once per document', () => {
    const col = new CodeColumn();
    col.push(['a', 'b', 'a']);
    col.push(['b']);
    col.pack();
    col.set(2, ['c', 'a']);
    col.set(1, ['a']);
    const counts = new Int32Array(col.values.length);
    col.count(Int32Array.from([0, 1, 2]), counts);
    expect(Object.fromEntries(col.values.map((v, i) => [v, counts[i]]))).toEqual({ a: 3, b: 1, c: 1 });
  });

  it('folds later-set values into the packed arrays without changing any document', () => {
    for (const start of [
      [['a', 'b'], [], ['c'], ['a'], [], ['b', 'c', 'd']],
      [[], [], []],
    ]) {
      const col = new CodeColumn();
      for (const values of start) col.push(values);
      col.pack();
      col.set(0, []);
      col.set(2, ['d', 'e', 'a']);
      col.set(start.length - 1, ['b']);
      const before = start.map((_, d) => [...col.get(d)].map((c) => col.values[c]));
      col.fold();
      expect(start.map((_, d) => [...col.get(d)].map((c) => col.values[c]))).toEqual(before);
      const again = CodeColumn.fromParts(col.parts(), start.length);
      expect(start.map((_, d) => [...again.get(d)].map((c) => again.values[c]))).toEqual(before);
    }
  });

  it('folds documents set to the values they had without making the packed arrays anew', () => {
    for (const start of [
      [['a', 'b'], [], ['c'], ['a', 'b']],
      [['a'], [], ['b'], ['a']],
    ]) {
      const col = new CodeColumn();
      for (const values of start) col.push(values);
      col.pack();
      const packed = col.parts().codes;
      start.forEach((values, d) => col.set(d, values));
      col.fold();
      expect(col.parts().codes).toBe(packed);
      expect(start.map((_, d) => [...col.get(d)].map((c) => col.values[c]))).toEqual(start);
      // One changed document among them: folded anew.
      start.forEach((values, d) => col.set(d, d === 1 ? ['c'] : values));
      col.fold();
      expect(col.parts().codes).not.toBe(packed);
      expect(start.map((_, d) => [...col.get(d)].map((c) => col.values[c]))).toEqual(
        start.map((values, d) => (d === 1 ? ['c'] : values)),
      );
    }
  });

  it('keeps one code per document and no offsets while no document has two values', () => {
    const col = new CodeColumn();
    for (const values of [['a'], [], ['b'], ['a']]) col.push(values);
    col.pack();
    const single = col.parts();
    expect(single.offsets).toHaveLength(0);
    expect(Array.from(single.codes)).toEqual([0, -1, 1, 0]);
    const read = (c: CodeColumn) => [0, 1, 2, 3, 4].map((d) => [...c.get(d)].map((code) => c.values[code]));
    const counted = (c: CodeColumn) => {
      const counts = new Int32Array(c.values.length);
      c.count(Int32Array.from([0, 1, 2, 3, 4]), counts);
      return Array.from(counts);
    };
    const wanted = (c: CodeColumn, value: string) => {
      const w = new Uint8Array(c.values.length);
      w[c.dict.get(value)!] = 1;
      return [0, 1, 2, 3, 4].filter((d) => c.has(d, w));
    };
    // A new document and a change that keep one value each stay in the small form.
    col.push(['c']);
    col.set(1, ['b']);
    col.fold();
    expect(col.parts().offsets).toHaveLength(0);
    expect(read(col)).toEqual([['a'], ['b'], ['b'], ['a'], ['c']]);
    expect(counted(col)).toEqual([2, 2, 1]);
    expect(wanted(col, 'b')).toEqual([1, 2]);
    // A second value turns it into the general form, and back once it is gone.
    col.set(3, ['a', 'c']);
    col.fold();
    expect(col.parts().offsets).toHaveLength(6);
    expect(read(col)).toEqual([['a'], ['b'], ['b'], ['a', 'c'], ['c']]);
    expect(counted(col)).toEqual([2, 2, 2]);
    expect(wanted(col, 'c')).toEqual([3, 4]);
    const again = CodeColumn.fromParts(col.parts(), 5);
    expect(read(again)).toEqual(read(col));
    col.set(3, []);
    col.fold();
    expect(col.parts().offsets).toHaveLength(0);
    expect(read(col)).toEqual([['a'], ['b'], ['b'], [], ['c']]);
    expect(counted(CodeColumn.fromParts(col.parts(), 5))).toEqual([1, 2, 1]);
  });

  it('counts and filters a single-valued column in bytes, two bytes and four alike: 30, 300 and 70,000 values', () => {
    for (const distinct of [30, 300, 70_000]) {
      const col = new CodeColumn();
      const size = 140_000;
      // Every 7th document without a value; the values in a shuffled order.
      for (let d = 0; d < size; d++) col.push(d % 7 === 3 ? [] : [`v${(d * 7919) % distinct}`]);
      col.pack();
      col.set(5, []);
      col.set(10, ['v1']);
      const docs = Int32Array.from({ length: size / 2 }, (_, i) => i * 2);
      const counts = new Int32Array(col.values.length);
      col.count(docs, counts);
      const expected = new Int32Array(col.values.length);
      for (const d of docs) for (const c of col.get(d)) expected[c]!++;
      expect(Array.from(counts)).toEqual(Array.from(expected));
      const wanted = new Uint8Array(col.values.length);
      wanted[col.dict.get('v1')!] = 1;
      wanted[col.dict.get(`v${distinct - 1}`)!] = 1;
      const bits = col.docsWith(wanted, size);
      const found = [...Array(size).keys()].filter((d) => (bits[d >>> 5]! >>> (d & 31)) & 1);
      expect(found).toEqual([...Array(size).keys()].filter((d) => col.has(d, wanted)));
      expect(found).toContain(10);
      expect(found.length).toBeGreaterThan(2);
      // Through a snapshot, and once the change is folded in.
      const again = CodeColumn.fromParts(col.parts(), size);
      const recounted = new Int32Array(again.values.length);
      again.count(docs, recounted);
      expect(Array.from(recounted)).toEqual(Array.from(expected));
      // Documents past the packed ones (added since, without a value) among four counted at once.
      const past = Int32Array.from([0, 1, size, 2, 4, size + 1, 6, 8, 9]);
      const pastCounts = new Int32Array(again.values.length);
      again.count(past, pastCounts);
      const pastExpected = new Int32Array(again.values.length);
      for (const d of past) for (const c of again.get(d)) pastExpected[c]!++;
      expect(Array.from(pastCounts)).toEqual(Array.from(pastExpected));
      expect(pastCounts.reduce((a, b) => a + b, 0)).toBe(7);
    }
  });

  it('keeps documents in id order, finds them by id and refuses out-of-order new ids', () => {
    const index = new FacetIndex(['tags'], ['size'], []);
    for (const id of [3, 7, 9]) expect(index.put(row(id, ['g'], []))).toBe(true);
    index.pack();
    expect(index.docOf(7)).toBe(1);
    expect(index.docOf(8)).toBe(-1);
    expect(Array.from(index.docsOf([1, 3, 9, 10]))).toEqual([0, 2]);
    expect(index.put(row(5, ['g'], []))).toBe(false);
    expect(index.put(row(11, ['g'], ['x']))).toBe(true);
    index.pack();
    expect(index.codes.get('tags')!.get(3)).toEqual(Int32Array.from([0]));
  });

  it('maps ascending ids to documents near to and far from each other, dropping unknown ones', () => {
    const index = new FacetIndex([], [], []);
    const ids: number[] = [];
    // Runs of neighbours, single ones and long gaps, as a word's matches are.
    for (let id = 5, i = 0; ids.length < 5000; i++) {
      ids.push(id);
      id += i % 97 === 0 ? 1000 : i % 7 === 0 ? 13 : 1;
    }
    for (const id of ids) index.put(row(id, ['g'], []));
    index.pack();
    const asked = [1, ...ids.filter((_, i) => i % 3 !== 1), ids.at(-1)! + 1, ids.at(-1)! + 5000].flatMap((id, i) =>
      i % 11 === 0 ? [id, id + 1] : [id],
    );
    const wanted = [...new Set(asked)].sort((a, b) => a - b);
    const expected = wanted.flatMap((id) => (index.docOf(id) === -1 ? [] : [index.docOf(id)]));
    expect(Array.from(index.docsOf(wanted))).toEqual(expected);
    expect(Array.from(index.docsOf([]))).toEqual([]);
    expect(Array.from(index.docsOf([ids.at(-1)!]))).toEqual([ids.length - 1]);
  });

  it('makes a caller’s visible documents in steps as in one pass', async () => {
    const index = new FacetIndex([], [], []);
    for (let i = 1; i <= 1000; i++) index.put({ ...row(i, [i % 3 === 0 ? 'a' : 'b'], []), active: i % 10 !== 0 });
    index.pack();
    // Group 'b' (met first: bit 0): ids not divisible by 3, of which those divisible by 10 are inactive.
    const caller = Uint32Array.from([1]);
    let steps = 0;
    const inSteps = await index.visibleDocsInSteps(caller, () => Promise.resolve(void steps++), 64);
    expect(Array.from(inSteps)).toEqual(Array.from(index.visibleDocs(caller)));
    expect(inSteps.length).toBe(600);
    expect(steps).toBe(Math.ceil(1000 / 64) - 1);
  });

  it('visibility works with more than 32 groups and honours deactivation', () => {
    const index = new FacetIndex([], [], []);
    for (let i = 1; i <= 40; i++) index.put(row(i, [`group${i}`], []));
    index.pack();
    // Groups take bits in the order the index meets them: group2 is bit 1, group35 bit 34 (word 1, bit 2).
    const caller = Uint32Array.from([1 << 1, 1 << 2]);
    expect(Array.from(index.visibleDocs(caller)).map((d) => index.ids[d])).toEqual([2, 35]);
    index.deactivate(35);
    expect(Array.from(index.visibleDocs(caller)).map((d) => index.ids[d])).toEqual([2]);
  });

  it('filters a search’s matches through a filter’s bit set as a test per document does: single and several values, packed and later set, past the end', () => {
    const docs = Int32Array.from([0, 1, 2, 3, 4, 6]);
    const marked = (mark: (fail: Uint32Array) => void) => {
      const fail = new Uint32Array(docs.length).fill(8);
      mark(fail);
      return Array.from(fail);
    };
    for (const [rows, before, after] of [
      [
        [['a'], [], ['b'], ['a'], ['c']],
        [8, 10, 10, 8, 8, 10],
        [8, 8, 10, 10, 8, 10],
      ],
      [
        [['a', 'b'], [], ['c'], ['b', 'a'], ['c', 'd']],
        [8, 10, 8, 8, 8, 10],
        [8, 8, 8, 10, 8, 10],
      ],
    ] as const) {
      const col = new CodeColumn();
      for (const values of rows) col.push(values);
      col.pack();
      const wanted = new Uint8Array(8);
      wanted[col.dict.get('a')!] = 1;
      wanted[col.dict.get('c')!] = 1;
      const perDoc = () => marked((fail) => docs.forEach((d, i) => !col.has(d, wanted) && (fail[i]! |= 2)));
      const packed = perDoc();
      expect(packed).toEqual(before);
      expect(marked((fail) => markMissing(col.docsWith(wanted, 7), docs, fail, 2))).toEqual(packed);
      // Set after packing (a change applied): read over the packed arrays.
      col.set(1, ['c']);
      col.set(3, ['d']);
      expect(marked((fail) => markMissing(col.docsWith(wanted, 7), docs, fail, 2))).toEqual(perDoc());
      expect(perDoc()).toEqual(after);
    }
    const sizes = new NumberColumn();
    [5, 20, NaN, 100, 0].forEach((v, d) => sizes.set(d, Number.isNaN(v) ? null : v));
    expect(marked((fail) => markMissing(sizes.docsInside([[5, 100]], 7), docs, fail, 4))).toEqual([
      8, 8, 12, 8, 12, 12,
    ]);
    expect(
      marked((fail) =>
        markMissing(
          sizes.docsInside(
            [
              [0, 5],
              [50, Infinity],
            ],
            7,
          ),
          docs,
          fail,
          4,
        ),
      ),
    ).toEqual([8, 12, 12, 8, 8, 12]);
  });

  it('keeps numbers exactly, in 32-bit floats until a value needs 64 bits', () => {
    const col = new NumberColumn();
    col.set(0, 3);
    col.set(5, null);
    expect(col.data).toBeInstanceOf(Float32Array);
    col.set(2, 1_700_000_000_123);
    col.set(3, 0.1);
    expect(col.data).toBeInstanceOf(Float64Array);
    expect([col.get(0), col.get(2), col.get(3), col.get(5), col.get(99)]).toEqual([
      3,
      1_700_000_000_123,
      0.1,
      NaN,
      NaN,
    ]);
  });

  it('a facet column without values counts nothing, and counts values set on it later', () => {
    const col = new CodeColumn();
    for (let i = 0; i < 5; i++) col.push([]);
    col.pack();
    const none = new Int32Array(1);
    col.count(Int32Array.from([0, 1, 4]), none);
    expect(col.values).toEqual([]);
    col.set(3, ['x']);
    col.push(['y']);
    col.pack();
    const counts = new Int32Array(col.values.length);
    col.count(Int32Array.from([0, 3, 4, 5]), counts);
    expect(Object.fromEntries(col.values.map((v, i) => [v, counts[i]]))).toEqual({ x: 1, y: 1 });
    expect(col.has(3, Uint8Array.from([1, 0]))).toBe(true);
    expect(col.has(2, Uint8Array.from([1, 1]))).toBe(false);
  });

  it('keeps file names as bytes once packed, and reads later changes over them', () => {
    const col = new StringColumn();
    ['a.jpg', 'ü.png', ''].forEach((name, d) => col.set(d, name));
    const copy = StringColumn.fromParts(col.parts(3));
    copy.set(1, 'b.jpg');
    copy.set(4, 'e.jpg');
    expect(Array.from({ length: 5 }, (_, d) => copy.get(d))).toEqual(['a.jpg', 'b.jpg', '', '', 'e.jpg']);
    expect(Array.from({ length: 5 }, (_, d) => StringColumn.fromParts(copy.parts(5)).get(d))).toEqual([
      'a.jpg',
      'b.jpg',
      '',
      '',
      'e.jpg',
    ]);

    // Names set again unchanged, and new documents only: the packed bytes are kept and extended.
    const packed = StringColumn.fromParts(copy.parts(5));
    packed.set(0, 'a.jpg');
    packed.set(5, 'f.jpg');
    packed.set(6, 'ö.tif');
    const { bytes } = packed.parts(7);
    expect(Buffer.from(bytes).toString()).toBe('a.jpgb.jpge.jpgf.jpgö.tif');
    expect(Array.from({ length: 7 }, (_, d) => StringColumn.fromParts(packed.parts(7)).get(d))).toEqual([
      'a.jpg',
      'b.jpg',
      '',
      '',
      'e.jpg',
      'f.jpg',
      'ö.tif',
    ]);
  });

  it('packs changed file names among unchanged ones: longer, shorter, emptied, first and last, with new ones', () => {
    const names = Array.from({ length: 40 }, (_, d) => (d % 7 === 0 ? '' : `näme-${d}${'x'.repeat(d % 5)}.jpg`));
    const col = new StringColumn();
    names.forEach((name, d) => col.set(d, name));
    let packed = StringColumn.fromParts(col.parts(names.length));
    const expected = [...names];
    for (let round = 0; round < 3; round++) {
      for (const d of [0, 3, 4, 17, 20 + round, names.length - 1]) {
        expected[d] = d % 2 === 0 ? `é${'long'.repeat(round + (d % 3))}-${d}` : '';
        packed.set(d, expected[d]);
      }
      const added = expected.length;
      expected.push(`new-${round}.tif`, `ß-${round}`);
      packed.set(added, expected[added]!);
      packed.set(added + 1, expected[added + 1]!);
      const parts = packed.parts(expected.length);
      expect(Buffer.from(parts.bytes).toString()).toBe(expected.join(''));
      packed = StringColumn.fromParts(parts);
      expect(Array.from({ length: expected.length }, (_, d) => packed.get(d))).toEqual(expected);
    }
  });

  it('keeps sort orders right through changes: both directions, no value last, ties newest first', async () => {
    const walk = (index: FacetIndex, dir: 'asc' | 'desc') => {
      const acc: number[] = [];
      index.walkOrder('size', dir, (d) => acc.push(index.idOf(d)) > 0);
      return acc;
    };
    const sizes = [5, null, 3, 5, 1, null, 3, 8];
    const index = new FacetIndex([], ['size'], [], ['size']);
    sizes.forEach((size, i) => index.put({ ...row(i + 1, ['g'], []), numbers: { size } }));
    index.pack();
    expect(walk(index, 'asc')).toEqual([]);
    await index.sortOrders();
    expect(walk(index, 'asc')).toEqual([5, 7, 3, 4, 1, 8, 6, 2]);
    expect(walk(index, 'desc')).toEqual([8, 4, 1, 7, 3, 5, 6, 2]);
    index.put({ ...row(3, ['g'], []), numbers: { size: null } });
    index.put({ ...row(2, ['g'], []), numbers: { size: 3 } });
    index.put({ ...row(9, ['g'], []), numbers: { size: 0 } });
    index.pack();
    expect(walk(index, 'asc')).toEqual([9, 5, 7, 2, 4, 1, 8, 6, 3]);
    expect(walk(index, 'desc')).toEqual([8, 4, 1, 7, 2, 5, 9, 6, 3]);
  });

  it('counts later-set values on the packed path too, whatever order the documents are listed in', () => {
    const col = new CodeColumn();
    for (let d = 0; d < 300; d++) col.push([`v${d % 7}`, ...(d % 3 === 0 ? ['x'] : [])]);
    col.pack();
    for (let d = 5; d < 300; d += 11) col.set(d, d % 2 === 0 ? [] : ['y', `v${d % 5}`]);
    col.set(299, ['z']);
    // Counting document by document, as the column reads each one.
    const expected = (docs: number[]) => {
      const counts = new Int32Array(col.values.length);
      for (const d of docs) for (const c of col.get(d)) counts[c]!++;
      return Array.from(counts);
    };
    const counted = (docs: number[]) => {
      const counts = new Int32Array(col.values.length);
      col.count(Int32Array.from(docs), counts);
      return Array.from(counts);
    };
    const all = Array.from({ length: 300 }, (_, d) => d);
    const some = all.filter((d) => d % 4 !== 1);
    const shuffled = [...some].sort((a, b) => ((a * 7919) % 300) - ((b * 7919) % 300));
    expect(counted(all)).toEqual(expected(all));
    expect(counted(some)).toEqual(expected(some));
    expect(counted(shuffled)).toEqual(expected(shuffled));
    col.set(1, ['w']);
    expect(counted(all)).toEqual(expected(all));
  });

  it('keeps a sort order whose keys a change left as they were, and places moved and new documents', async () => {
    const order = (index: FacetIndex) => index.parts().orders.get('size');
    const walk = (index: FacetIndex) => {
      const acc: number[] = [];
      index.walkOrder('size', 'asc', (d) => acc.push(index.idOf(d)) > 0);
      return acc;
    };
    const index = new FacetIndex(['tags'], ['size'], [], ['size']);
    [4, 2, 9, 1].forEach((size, i) => index.put(row(i + 1, ['g'], ['a'], size)));
    index.pack();
    await index.sortOrders();
    const before = order(index);
    // A change of the tags keeps every size: the order stays the same array.
    index.put(row(2, ['g'], ['b'], 2));
    index.put(row(3, ['g'], ['b'], 9));
    // Nothing to put right: the order answers before the next packing (a pass over every document
    // of every order was spared, some 100 ms each at ten million).
    expect(walk(index)).toEqual([4, 2, 1, 3]);
    index.pack();
    expect(order(index)).toBe(before);
    expect(walk(index)).toEqual([4, 2, 1, 3]);
    index.put(row(1, ['g'], ['a'], 10));
    index.pack();
    expect(order(index)).not.toBe(before);
    expect(walk(index)).toEqual([4, 2, 3, 1]);
    // A new document fits at the end by its key, but it still needs a place in the order.
    index.put(row(5, ['g'], ['a'], 11));
    index.pack();
    expect(walk(index)).toEqual([4, 2, 3, 1, 5]);
  });

  it('set operations work on ascending document numbers', () => {
    const a = Int32Array.from([1, 3, 5, 7]);
    const b = Int32Array.from([3, 4, 7, 9]);
    expect(Array.from(intersect(a, b))).toEqual([3, 7]);
    expect(Array.from(union(a, b))).toEqual([1, 3, 4, 5, 7, 9]);
    expect(Array.from(subtract(a, b))).toEqual([1, 5]);
  });
});

describe("a field's documents as a bit set, made in parts (a field:value search at ten million assets)", () => {
  it('docsOfBitSet answers the documents of a bit set, bit 31 of a word included', () => {
    const docs = [0, 1, 31, 32, 63, 64, 1000, 4095];
    expect(Array.from(docsOfBitSet(bitSetOf(docs, 4096)))).toEqual(docs);
    expect(Array.from(docsOfBitSet(new Uint32Array(3)))).toEqual([]);
    expect(Array.from(docsOfBitSet(Uint32Array.from([0xffffffff])))).toEqual(Array.from({ length: 32 }, (_, i) => i));
  });

  it('docsWithInSteps takes a step between parts and answers what docsWith answers, documents set after packing too', async () => {
    for (const multi of [false, true]) {
      const col = new CodeColumn();
      for (let d = 0; d < 1000; d++) col.push(multi && d % 3 === 0 ? ['sea', `n${d % 7}`] : [`n${d % 7}`]);
      col.pack();
      col.set(5, ['sea']);
      col.set(6, []);
      col.set(7, ['n3']);
      const wanted = new Uint8Array(col.values.length);
      for (const v of ['sea', 'n3']) wanted[col.dict.get(v)!] = 1;
      let steps = 0;
      const stepped = await col.docsWithInSteps(wanted, 1000, async () => void steps++, 128);
      expect(steps).toBe(7);
      expect(Array.from(stepped)).toEqual(Array.from(col.docsWith(wanted, 1000)));
      const docs = Array.from(docsOfBitSet(stepped));
      expect(docs).toContain(5);
      expect(docs).toContain(7);
      expect(docs).not.toContain(6);
      expect(docs.filter((d) => ![5, 6, 7].includes(d))).toEqual(
        Array.from({ length: 1000 }, (_, d) => d).filter(
          (d) => ![5, 6, 7].includes(d) && (d % 7 === 3 || (multi && d % 3 === 0)),
        ),
      );
    }
  });
});
