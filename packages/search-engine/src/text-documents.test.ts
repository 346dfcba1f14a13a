import { describe, expect, it } from 'vitest';
import { FieldRegistry } from './fields.ts';
import type { AssetBatch, Catalogue } from './ports.ts';
import type { TextDocument, TextIndex } from './text-index.ts';
import { writeTexts } from './text-documents.ts';

// The texts of a change are written beside searches (an edit of 5,000 assets on PostgreSQL, issue #49).
describe('writeTexts', () => {
  const assets = 1200;
  const batch: AssetBatch = {
    assets: Array.from({ length: assets }, (_, i) => ({
      id: i + 1,
      status: i === 5 ? 'bin' : 'active',
      filename: `f${i + 1}.jpg`,
    })),
    values: Array.from({ length: assets }, (_, i) => ({
      asset_id: i + 1,
      field: 'title',
      lang: 'en',
      ord: 0,
      value: `Harbour ${i + 1}`,
    })),
    access: [],
    collections: [],
  };
  const catalogue = { batch: async () => batch } as unknown as Catalogue<null>;
  const rule = { isLive: (status: string) => status === 'active' };

  it('makes the documents of a large change a slice at a time, letting other work run between, and writes them all', async () => {
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    let written: { docs: readonly TextDocument[]; removed: readonly number[]; turnsBefore: number } | undefined;
    const text: TextIndex<null> = {
      write: async (docs, removed) => {
        written = { docs, removed, turnsBefore: turns };
      },
      clear: async () => undefined,
      match: async () => new Int32Array(0),
    };
    setImmediate(tick);
    const ids = batch.assets.map((a) => a.id);
    await writeTexts(catalogue, null, text, new FieldRegistry(), rule, ids);
    counting = false;
    // Four slices of documents: other callbacks ran between them.
    expect(written!.turnsBefore).toBeGreaterThanOrEqual(3);
    expect(written!.docs).toHaveLength(assets - 1);
    expect(written!.docs[0]).toMatchObject({ id: 1, title: expect.stringContaining('harbour 1') });
    // The binned asset leaves the index.
    expect(written!.removed).toEqual([6]);
  });
});
