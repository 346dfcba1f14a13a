import { describe, expect, it } from 'vitest';
import { CodeColumn, FacetIndex, intersect, subtract, union, type IndexRow } from './facet-index.ts';

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

  it('visibility works with more than 32 groups and honours deactivation', () => {
    const index = new FacetIndex([], [], []);
    for (let i = 1; i <= 40; i++) index.put(row(i, [`group${i}`], []));
    index.pack();
    const caller = index.callerMasks(['group2', 'group35', 'unknown']);
    expect(Array.from(index.visibleDocs(caller)).map((d) => index.ids[d])).toEqual([2, 35]);
    index.deactivate(35);
    expect(Array.from(index.visibleDocs(caller)).map((d) => index.ids[d])).toEqual([2]);
  });

  it('set operations work on ascending document numbers', () => {
    const a = Int32Array.from([1, 3, 5, 7]);
    const b = Int32Array.from([3, 4, 7, 9]);
    expect(Array.from(intersect(a, b))).toEqual([3, 7]);
    expect(Array.from(union(a, b))).toEqual([1, 3, 4, 5, 7, 9]);
    expect(Array.from(subtract(a, b))).toEqual([1, 5]);
  });
});
