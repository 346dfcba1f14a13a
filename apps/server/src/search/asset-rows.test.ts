import { describe, expect, it } from 'vitest';
import type { AssetBatch, AssetRow } from './search.repository.ts';
import { AssetRowsCache, joinRows, type AssetRowsSource } from './asset-rows.ts';

/** A catalogue in memory: a title per asset and the thumbnails made so far; counts what is read. */
function catalogue(titles: Record<number, string>) {
  const placeholders = new Map<number, string>();
  /** The count of placeholders written, as the last read of the catalogue's state saw it. */
  const mark = { seen: 0 };
  const reads: number[][] = [];
  const placeholderReads: number[][] = [];
  let pause: Promise<void> | undefined;
  const source: AssetRowsSource = {
    async batch(ids) {
      reads.push([...ids]);
      const snapshot = ids.flatMap((id) => (titles[id] === undefined ? [] : [[id, titles[id]] as const]));
      await pause;
      const batch: AssetBatch = { assets: [], values: [], access: [], collections: [] };
      for (const [id, title] of snapshot) {
        batch.assets.push({ id } as AssetRow);
        batch.values.push({ asset_id: id, field: 'title', lang: '', ord: 0, value: title });
        batch.collections.push({ asset_id: id, collection_id: 7 });
      }
      return batch;
    },
    async thumbhashes(ids) {
      placeholderReads.push([...ids]);
      return new Map(ids.flatMap((id) => (placeholders.has(id) ? [[id, placeholders.get(id) as string]] : [])));
    },
    placeholderMark: () => mark.seen,
  };
  return {
    source,
    titles,
    placeholders,
    mark,
    reads,
    placeholderReads,
    /** Holds reads of the catalogue until the answered function is called. */
    holdReads: () => {
      let release = () => {};
      pause = new Promise((resolve) => (release = resolve));
      return () => {
        pause = undefined;
        release();
      };
    },
  };
}

const titlesOf = (rows: Map<number, { batch: AssetBatch }>) =>
  Object.fromEntries([...rows].map(([id, r]) => [id, r.batch.values.map((v) => v.value).join()]));

describe('the rows of assets that answers show (issue #31 "The answer path")', () => {
  it('reads an asset once and answers it from memory until the index applies a change of it', async () => {
    const c = catalogue({ 1: 'Red car', 2: 'Blue boat', 3: 'Penguin' });
    c.placeholders.set(1, 'h1').set(2, 'h2').set(3, 'h3');
    const cache = new AssetRowsCache(c.source);
    expect(titlesOf(await cache.rows([1, 2]))).toEqual({ 1: 'Red car', 2: 'Blue boat' });
    expect(titlesOf(await cache.rows([2, 3, 1]))).toEqual({ 1: 'Red car', 2: 'Blue boat', 3: 'Penguin' });
    expect(c.reads).toEqual([[1, 2], [3]]);

    c.titles[2] = 'Green boat';
    // Not yet applied by the index: the answer stays that of the index.
    expect(titlesOf(await cache.rows([2]))).toEqual({ 2: 'Blue boat' });
    cache.forget([2]);
    expect(titlesOf(await cache.rows([1, 2]))).toEqual({ 1: 'Red car', 2: 'Green boat' });
    expect(c.reads.at(-1)).toEqual([2]);
    cache.forget('all');
    expect(cache.size).toBe(0);
  });

  it('does not keep a read that began before a change the index applied meanwhile', async () => {
    const c = catalogue({ 1: 'Red car' });
    c.placeholders.set(1, 'h1');
    const cache = new AssetRowsCache(c.source);
    const release = c.holdReads();
    const early = cache.rows([1]);
    // The change commits and the index applies it while the read is under way.
    c.titles[1] = 'Red racing car';
    cache.forget([1]);
    release();
    expect(titlesOf(await early)).toEqual({ 1: 'Red car' });
    expect(titlesOf(await cache.rows([1]))).toEqual({ 1: 'Red racing car' });
    expect(c.reads).toEqual([[1], [1]]);
  });

  it('asks for a missing thumbnail placeholder again once one was written anywhere, without reading the asset again', async () => {
    const c = catalogue({ 1: 'Red car', 2: 'Blue boat' });
    c.placeholders.set(2, 'h2');
    const cache = new AssetRowsCache(c.source);
    const first = await cache.rows([1, 2]);
    expect([first.get(1)?.thumbhash, first.get(2)?.thumbhash]).toEqual([undefined, 'h2']);
    // No placeholder written since: nothing is asked.
    await cache.rows([1, 2]);
    expect(c.placeholderReads).toEqual([[1, 2]]);
    c.placeholders.set(1, 'h1');
    c.mark.seen = 1;
    const second = await cache.rows([1, 2]);
    expect([second.get(1)?.thumbhash, second.get(2)?.thumbhash]).toEqual(['h1', 'h2']);
    await cache.rows([1, 2]);
    expect(c.reads).toEqual([[1, 2]]);
    expect(c.placeholderReads).toEqual([[1, 2], [1]]);
  });

  it('asks for a missing placeholder each time while the count of placeholders written is not known', async () => {
    const c = catalogue({ 1: 'Red car' });
    c.mark.seen = -1;
    const cache = new AssetRowsCache(c.source);
    await cache.rows([1]);
    await cache.rows([1]);
    c.placeholders.set(1, 'h1');
    expect((await cache.rows([1])).get(1)?.thumbhash).toBe('h1');
    expect(c.placeholderReads).toEqual([[1], [1], [1]]);
  });

  it('a placeholder written while an answer reads is asked for by the next answer', async () => {
    const c = catalogue({ 1: 'Red car' });
    const cache = new AssetRowsCache(c.source);
    const release = c.holdReads();
    const reading = cache.rows([1]);
    // Written (and counted) after the answer took the count it reads against.
    c.placeholders.set(1, 'h1');
    c.mark.seen = 1;
    release();
    expect((await reading).get(1)?.thumbhash).toBeUndefined();
    expect((await cache.rows([1])).get(1)?.thumbhash).toBe('h1');
  });

  it('keeps at most its limit, the least recently used going first; assets that do not exist are not kept', async () => {
    const c = catalogue({ 1: 'a', 2: 'b', 3: 'c', 4: 'd' });
    for (const id of [1, 2, 3, 4]) c.placeholders.set(id, `h${id}`);
    const cache = new AssetRowsCache(c.source, 3);
    await cache.rows([1, 2, 3]);
    await cache.rows([1]);
    await cache.rows([4, 99]);
    expect(cache.size).toBe(3);
    await cache.rows([1, 3, 4]);
    // 2 was the least recently used; 99 does not exist and is asked for again.
    expect(c.reads).toEqual([
      [1, 2, 3],
      [4, 99],
    ]);
    await cache.rows([2]);
    expect(c.reads.at(-1)).toEqual([2]);
  });

  it('joins kept rows into one batch for presenting them', async () => {
    const c = catalogue({ 1: 'Red car', 2: 'Blue boat' });
    const cache = new AssetRowsCache(c.source);
    const joined = joinRows((await cache.rows([2, 1])).values());
    expect(joined.assets.map((a) => a.id).sort()).toEqual([1, 2]);
    expect(joined.values.map((v) => v.value).sort()).toEqual(['Blue boat', 'Red car']);
    expect(joined.collections).toHaveLength(2);
  });
});
