import { describe, expect, it } from 'vitest';
import type { WrittenChange } from './catch-up.ts';
import { WRITTEN_PART_ASSETS, writtenChangeOf, writtenParts } from './written-change.ts';

const collect = async (change: WrittenChange) => {
  const parts: string[] = [];
  for await (const part of writtenParts(change)) parts.push(part);
  return parts;
};

/** A change of `n` scattered assets, two keywords each (the second in German), with documents. */
const change = (n: number): WrittenChange => {
  const ids = Array.from({ length: n }, (_, i) => 10 + i * 7);
  return {
    seq: 42,
    ids,
    fields: ['keywords'],
    values: ids.flatMap((id) => [
      { asset_id: id, field: 'keywords', lang: 'en', ord: 0, value: `word ${id} "quoted" é` },
      { asset_id: id, field: 'keywords', lang: 'de', ord: 0, value: `Wort ${id}` },
    ]),
    documents: ids.map((id) => ({ id, title: `Title ${id}`, body: `Title ${id} word ${id}` })),
  };
};

describe('a change kept for other processes (written-change.ts)', () => {
  it('is kept in parts of a few hundred assets and read back whole, in its order', async () => {
    const written = change(WRITTEN_PART_ASSETS * 2 + 3);
    const parts = await collect(written);
    expect(parts).toHaveLength(3);
    expect(await writtenChangeOf(42, parts)).toEqual(written);
    // Without documents (a writer that left the texts to the catch-up), it comes back without them.
    const { documents: _, ...bare } = written;
    expect(await writtenChangeOf(42, await collect(bare))).toEqual(bare);
  });

  it('is not taken when its parts are not a whole change of the asked sequence', async () => {
    const parts = await collect(change(WRITTEN_PART_ASSETS + 1));
    expect(await writtenChangeOf(42, [])).toBeUndefined();
    expect(await writtenChangeOf(43, parts)).toBeUndefined();
    const other = await collect({ ...change(3), fields: ['category'] });
    expect(await writtenChangeOf(42, [parts[0]!, other[0]!])).toBeUndefined();
    expect(await writtenChangeOf(42, [JSON.stringify({ v: 2, seq: 42 })])).toBeUndefined();
    // A part cut short is no change either: the catch-up reads it from the catalogue instead of failing.
    expect(await writtenChangeOf(42, [parts[0]!, parts[1]!.slice(0, 100)])).toBeUndefined();
  });
});
